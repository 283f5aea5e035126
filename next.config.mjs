/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "pg", "pino"],
  // The dev server logs request URLs; these carry webhook credentials (?secret=, ?access_token=, §5.5).
  logging: { incomingRequests: { ignore: [/\/api\/webhooks\//] } },
};

export default nextConfig;
