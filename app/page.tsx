export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Engage Console</h1>
      <p className="mt-2 text-slate-700">
        Install Engage Console from your platform&apos;s marketplace, then open it from the admin.
      </p>
    </main>
  );
}
