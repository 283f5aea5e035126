/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "pg", "pino"],
};

export default nextConfig;
