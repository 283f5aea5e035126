import { redirect } from "next/navigation";

/** Opened from the platform (`?openAppId=`, §5.4.4): the console starts at Customers. */
export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const openAppId = typeof params.openAppId === "string" ? params.openAppId : undefined;
  if (openAppId) {
    const query = new URLSearchParams({ openAppId });
    if (typeof params.lang === "string") query.set("lang", params.lang);
    redirect(`/customers?${query.toString()}`);
  }
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Engage Console</h1>
      <p className="mt-2 text-slate-700">
        Install Engage Console from your platform&apos;s marketplace, then open it from the admin.
      </p>
    </main>
  );
}
