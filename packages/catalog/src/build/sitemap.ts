function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `sitemap.xml` listing page routes under the deployment origin (no trailing slash). */
export function sitemapXml(siteUrl: string, routes: readonly string[]): string {
  const urls = routes.map((route) => `<url><loc>${escapeXml(`${siteUrl}${route}`)}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
