"""Writes what Python's `packaging` answers for the rows the TypeScript standards are checked on.

Run once with the pinned packaging on PYTHONPATH and commit the output beside this script:

    PYTHONPATH=<dir with packaging==26.4> python3 generate.py > packaging-table.json

The suite runs it again (test/python-standards-live.test.ts) and requires the same answer.
"""

import json
import sys

import packaging
from packaging import tags
from packaging.markers import InvalidMarker, Marker, UndefinedComparison
from packaging.pylock import Pylock, PylockValidationError
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

try:
    import tomllib
except ImportError:  # pragma: no cover
    sys.exit("python >= 3.11 is needed (tomllib)")

NAMES = [
    "Foo_Bar", "foo.bar", "FOO--bar__baz", "a", "Django", "zope.interface", "ruamel.yaml.clib",
    "A-._-B", "typing_extensions", "Pillow", "pkg.-_name",
]

VERSIONS = [
    "1.0", "v1.0", "V2", "1.0.0a1", "1.0a", "1.0.post1", "1.0-1", "1.0.dev0", "1!2.0", "1.0+local.7",
    "1.0rc1", "1.0c1", "1.0-alpha.1", "1.0.0-pre", " 1.0 ", "1.0.DEV", "01.02", "1.0a1.post2.dev3",
    "1..0", "abc", "1.0_beta", "2.0.0-preview", "1.0r2", "1.0-r", "1.0.post", "1.0-", "1.0+",
    "1.0+ubuntu-1", "1.0+UBUNTU_1", "1.0.0.0.0", "0", "2024.10.1", "1.0b2.post345.dev456", "1.0-dev",
    "1.0.0rc", "1.0alpha2", "1.0beta", "1.0preview1", "1.0rev3", "1.0.post.dev1", "1.0a.1", "1.0.0+abc.5.1",
    "1!", "1.0.x", "1.0.0-final", "0.1.0.dev0+g1234abc", "26.4",
]

COMPARE = [
    ("1.0", "1.0.0"), ("1.0a1", "1.0"), ("1.0.dev0", "1.0a1"), ("1.0.post1", "1.0"), ("1.0+local", "1.0"),
    ("1!0.1", "2.0"), ("1.0rc1", "1.0c1"), ("1.0.post1.dev0", "1.0.post1"), ("1.0.post1.dev0", "1.0"),
    ("1.0a1.dev0", "1.0a1"), ("1.0+abc", "1.0+abd"), ("1.0+5", "1.0+abc"), ("1.0+1.a", "1.0+1"),
    ("1.10", "1.9"), ("1.0.0.1", "1.0"), ("1.0b1", "1.0a2"), ("1.0.dev1", "1.0.dev0"), ("0.9", "1.0.dev0"),
    ("2.0.0-pre", "2.0.0rc0"), ("1.0.post1", "1.0.1"),
]

SPECIFIERS = [
    (">=1.0", "1.1a1"), (">=1.0", "1.1"), ("~=1.4.5", "1.4.9"), ("~=1.4.5", "1.5.0"), ("~=1.4", "1.9"),
    ("==1.*", "1.5"), ("==1.*", "2.0"), ("!=1.0.*", "1.0.3"), ("!=1.0.*", "1.1"), ("===foo", "foo"),
    (">1.0", "1.0.post1"), (">1.0.post1", "1.0.post2"), ("<2.0", "2.0a1"), ("<2.0a2", "2.0a1"),
    (">=1.0,<2.0", "1.5"), (">=1.0,<2.0", "2.0"), (">=1.0a1", "1.0b1"), ("==1.0", "1.0+local"),
    ("==1.0+local", "1.0"), (">1.0", "1.0+local"), ("<=1.0", "1.0+local"), ("", "1.0a1"), ("", "1.0"),
    (">=3.8", "3.11.7"), ("<3.11", "3.11.0rc1"), (">=3.11.0", "3.11"), ("==3.11.*", "3.11.7"),
    ("!=3.11.*,>=3.8", "3.12.1"), ("==1.0.*", "1.0"), (">=1.0.dev0", "1.0.dev0"),
]

ENVIRONMENTS = {
    "linux-amd64-311": {
        "implementation_name": "cpython", "implementation_version": "3.11.7", "os_name": "posix",
        "platform_machine": "x86_64", "platform_python_implementation": "CPython", "platform_release": "",
        "platform_system": "Linux", "platform_version": "", "python_full_version": "3.11.7",
        "python_version": "3.11", "sys_platform": "linux", "extra": "",
    },
    "darwin-arm64-312": {
        "implementation_name": "cpython", "implementation_version": "3.12.0", "os_name": "posix",
        "platform_machine": "arm64", "platform_python_implementation": "CPython", "platform_release": "",
        "platform_system": "Darwin", "platform_version": "", "python_full_version": "3.12.0",
        "python_version": "3.12", "sys_platform": "darwin", "extra": "",
    },
    "windows-amd64-310-extra-d": {
        "implementation_name": "cpython", "implementation_version": "3.10.4", "os_name": "nt",
        "platform_machine": "AMD64", "platform_python_implementation": "CPython", "platform_release": "",
        "platform_system": "Windows", "platform_version": "", "python_full_version": "3.10.4",
        "python_version": "3.10", "sys_platform": "win32", "extra": "d",
    },
}

MARKERS = [
    'python_version >= "3.8"', 'python_version < "3.11"', "sys_platform == 'win32'",
    'platform_machine == "x86_64" and python_version > "3.9"', 'os_name == "nt" or extra == "d"',
    '"linux" in sys_platform', 'sys_platform not in "linux darwin"', 'python_full_version >= "3.11.0rc1"',
    'implementation_name == "cpython"', 'python_version ~= "3.11"', 'python_version == "3.11.*"',
    "extra == 'D'", "extra == 'Test_Extra'", '(os_name == "posix" or sys_platform == "win32") and python_version >= "3.12"',
    'platform_machine in "x86_64 AMD64"', '"3.10" <= python_version', 'python_version > "3.9" and (extra == "d" or extra == "e")',
    'platform_system != "Windows"', 'python_version<"3.11"and os_name=="posix"', 'platform_release == ""',
    'python_version === "3.11"', "python_version == '3.1' or python_version == '3.11'", 'platform_machine >= "arm"',
    'python_version >', 'python_version = "3"', 'foo == "bar"', 'python_version in "3.10 3.11"',
    'implementation_version >= "3.11.7"', 'python_full_version != "3.11.7"', '"darwin" == sys_platform',
]

WHEELS = [
    "foo-1.0-py3-none-any.whl", "Foo_Bar-2.0.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "pkg-1.0-1-py2.py3-none-any.whl", "pkg-1.0-1b-py3-none-any.whl", "pkg-1.0-py3-none-any", "pkg-1.0-py3-any.whl",
    "zope.interface-6.0-cp312-cp312-macosx_11_0_arm64.whl", "bad_ver-1..0-py3-none-any.whl",
    "cryptography-42.0.5-cp39-abi3-musllinux_1_2_aarch64.whl", "numpy-1.26.4-cp311-cp311-win_amd64.whl",
    "name__double-1.0-py3-none-any.whl", "Upper-1.0-PY3-NONE-ANY.whl", "pkg-1.0-x-py3-none-any.whl",
    "ruamel.yaml.clib-0.2.8-cp311-cp311-musllinux_1_1_x86_64.whl", "pkg-1.0+local-py3-none-any.whl",
]

TAG_SETS = [
    {"python": [3, 11], "abi": "cp311", "platforms": ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "linux_x86_64"]},
    {"python": [3, 12], "abi": "cp312", "platforms": ["macosx_11_0_arm64"]},
    {"python": [3, 9], "abi": "cp39", "platforms": []},
]

PYLOCKS = {
    "minimal": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "Foo_Bar"\nversion = "1.0"\n[[packages.wheels]]\nurl = "https://x/foo_bar-1.0-py3-none-any.whl"\nhashes = {sha256 = "ab"}\n',
    "full": (
        'lock-version = "1.0"\nrequires-python = ">=3.9"\ncreated-by = "uv"\nenvironments = [\'sys_platform == "linux"\']\n'
        '[[packages]]\nname = "click"\nversion = "8.1.7"\nmarker = \'python_version >= "3.7"\'\nindex = "https://pypi.org/simple"\n'
        'wheels = [{ name = "click-8.1.7-py3-none-any.whl", url = "https://files/click-8.1.7-py3-none-any.whl", upload-time = 2023-08-17T17:29:10Z, size = 97941, hashes = { sha256 = "ae74" } }]\n'
        '[[packages]]\nname = "colorama"\nversion = "0.4.6"\nmarker = "sys_platform == \'win32\'"\n'
        '[packages.sdist]\nurl = "https://files/colorama-0.4.6.tar.gz"\nhashes = {sha256 = "08"}\n'
    ),
    "normalized": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "foo-bar"\nversion = "1.0"\n[[packages.wheels]]\nurl = "https://x/foo_bar-1.0-py3-none-any.whl"\nhashes = {sha256 = "ab"}\n',
    "bad-lock-version": 'lock-version = "2.0"\ncreated-by = "t"\n',
    "missing-created-by": 'lock-version = "1.0"\n',
    "wheel-without-hashes": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "a"\nversion = "1"\n[[packages.wheels]]\nurl = "https://x/a-1-py3-none-any.whl"\n',
    "bad-version": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "a"\nversion = "1..0"\n',
    "no-version-directory": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "a"\n[packages.directory]\npath = "."\n',
    "two-sources": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "a"\nversion = "1"\n[packages.sdist]\nurl = "https://x/a-1.tar.gz"\nhashes = {sha256 = "0"}\n[packages.directory]\npath = "."\n',
    "bad-marker": 'lock-version = "1.0"\ncreated-by = "t"\n[[packages]]\nname = "a"\nversion = "1"\nmarker = "python_version >"\n[packages.sdist]\nurl = "https://x/a-1.tar.gz"\nhashes = {sha256 = "0"}\n',
}


def version_row(text):
    try:
        v = Version(text)
    except InvalidVersion:
        return {"input": text, "valid": False}
    return {
        "input": text, "valid": True, "normalized": str(v), "public": v.public, "base": v.base_version,
        "prerelease": v.is_prerelease, "devrelease": v.is_devrelease, "postrelease": v.is_postrelease,
        "release": list(v.release), "epoch": v.epoch, "local": v.local,
    }


def cmp(a, b):
    va, vb = Version(a), Version(b)
    return -1 if va < vb else (1 if va > vb else 0)


def spec_row(spec, version):
    try:
        s = SpecifierSet(spec)
    except InvalidSpecifier:
        return {"specifier": spec, "version": version, "valid": False}
    return {"specifier": spec, "version": version, "valid": True, "contains": s.contains(version),
            "contains_prereleases": s.contains(version, prereleases=True)}


def marker_row(text):
    try:
        m = Marker(text)
    except InvalidMarker:
        return {"marker": text, "valid": False}
    results = {}
    for key, env in ENVIRONMENTS.items():
        try:
            results[key] = m.evaluate(dict(env))
        except UndefinedComparison:
            results[key] = "undefined-comparison"
    return {"marker": text, "valid": True, "results": results}


def wheel_row(filename):
    try:
        name, version, build, tag_set = parse_wheel_filename(filename)
    except (InvalidWheelFilename, InvalidVersion):
        return {"filename": filename, "valid": False}
    return {"filename": filename, "valid": True, "name": name, "version": str(version),
            "build": list(build), "tags": sorted(str(t) for t in tag_set)}


def tag_row(case):
    py = tuple(case["python"])
    interp = f"cp{py[0]}{py[1]}"
    ordered = list(tags.cpython_tags(py, [case["abi"]], case["platforms"]))
    ordered += list(tags.compatible_tags(py, interp, case["platforms"]))
    return {**case, "tags": [str(t) for t in ordered]}


def pylock_row(key, text):
    try:
        lock = Pylock.from_dict(tomllib.loads(text))
    except PylockValidationError:
        return {"case": key, "valid": False}
    packages = []
    for p in lock.packages:
        packages.append({
            "name": p.name, "version": None if p.version is None else str(p.version),
            "marker": None if p.marker is None else str(p.marker),
            "wheels": [{"name": w.filename, "url": w.url, "sha256": w.hashes.get("sha256")} for w in (p.wheels or [])],
            "sdist": p.sdist is not None,
        })
    return {"case": key, "valid": True, "requires_python": None if lock.requires_python is None else str(lock.requires_python),
            "packages": packages}


def main():
    table = {
        "packaging": packaging.__version__,
        "names": [{"input": n, "normalized": canonicalize_name(n)} for n in NAMES],
        "versions": [version_row(v) for v in VERSIONS],
        "compare": [{"a": a, "b": b, "result": cmp(a, b)} for a, b in COMPARE],
        "specifiers": [spec_row(s, v) for s, v in SPECIFIERS],
        "environments": ENVIRONMENTS,
        "markers": [marker_row(m) for m in MARKERS],
        "wheels": [wheel_row(w) for w in WHEELS],
        "tags": [tag_row(c) for c in TAG_SETS],
        "pylocks": [dict(pylock_row(k, t), text=t) for k, t in PYLOCKS.items()],
    }
    json.dump(table, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
