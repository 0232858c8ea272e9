// Runs in <head> before the first paint, so a remembered theme never flashes the other one.
try {
  const theme = localStorage.getItem("pkg-theme");
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
} catch {
  // storage can be unavailable (privacy modes); the system preference applies then
}
