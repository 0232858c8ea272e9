import { startRegistry } from "./index.js";
for (const auth of ["none", "basic", "token"] as const) {
  const t0 = Date.now();
  const r = await startRegistry({ auth });
  console.log(auth, r.url, r.pid, Date.now() - t0, "ms");
  const a = await fetch(`${r.url}/v2/`);
  console.log(" anon", a.status, a.headers.get("www-authenticate"));
  if (r.user) {
    const basic = `Basic ${Buffer.from(`${r.user.username}:${r.user.password}`).toString("base64")}`;
    if (auth === "basic") console.log(" basic", (await fetch(`${r.url}/v2/`, { headers: { authorization: basic } })).status);
    else {
      const tok = await (await fetch(`${r.tokenRealm}?service=${r.tokenService}&scope=registry:catalog:*&scope=repository:x/y:push,pull`, { headers: { authorization: basic } })).json() as {token:string};
      const c = await fetch(`${r.url}/v2/_catalog`, { headers: { authorization: `Bearer ${tok.token}` } });
      console.log(" catalog", c.status, await c.text());
      const u = await fetch(`${r.url}/v2/x/y/blobs/uploads/`, { method: "POST", headers: { authorization: `Bearer ${tok.token}` } });
      console.log(" upload", u.status, u.headers.get("location"));
      const anon = await (await fetch(`${r.tokenRealm}?service=${r.tokenService}&scope=repository:x/y:push,pull`)).json() as {token:string};
      const u2 = await fetch(`${r.url}/v2/x/y/blobs/uploads/`, { method: "POST", headers: { authorization: `Bearer ${anon.token}` } });
      console.log(" anon upload", u2.status, await u2.text());
      console.log(" bad pw", (await fetch(`${r.tokenRealm}`, { headers: { authorization: "Basic " + Buffer.from("pkg-test:nope").toString("base64") } })).status);
    }
  }
  await r.stop();
  try { process.kill(r.pid, 0); console.log(" still alive!"); } catch { console.log(" gone"); }
}
