import Database from "better-sqlite3";
const db = new Database("/tmp/customer-index-bench-xOBwi0/app.sqlite", { readonly: true });
console.log(new Date().toISOString(), db.prepare("select indexed, started_at, total from search_tenants").all());
