import type { Metadata } from "next";
import type { ReactNode } from "react";
import { requestLocale } from "@/lib/i18n/server";
import "./globals.css";

export const metadata: Metadata = {
  title: "Engage Console",
  description: "Customers, lists, tags and orders of your Customer Engagement Platform tenant",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page's language for assistive technology; the console switches it live too.
  const locale = await requestLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
