export const dynamic = "force-dynamic";

/** A human-readable health page; machines use /api/health. */
export default function HealthPage() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Engage Console is running</h1>
      <p className="mt-2 text-slate-700" data-testid="health-status">
        status: ok
      </p>
    </main>
  );
}
