/**
 * Tab-scoped storage of the auth fallback: sessionStorage, or (where the browser denies storage to
 * a third-party frame) a JSON record in `window.name`, which lives as long as the frame's browsing
 * context. Only platform origins may frame the app (CSP frame-ancestors), so only they could preset
 * `window.name`. The same logic runs inline in the flow's hand-off pages (`TAB_STORAGE_JS`).
 */

type NameRecord = { ec: Record<string, string> };

function nameRecord(): NameRecord {
  try {
    const value = JSON.parse(window.name || "{}") as Partial<NameRecord>;
    return value && typeof value === "object" && value.ec && typeof value.ec === "object" ? (value as NameRecord) : { ec: {} };
  } catch {
    return { ec: {} };
  }
}

function session(): Storage | undefined {
  try {
    const s = window.sessionStorage;
    s.getItem("ec.probe");
    return s;
  } catch {
    return undefined;
  }
}

export const tabStorage = {
  get(key: string): string | null {
    const s = session();
    if (s) return s.getItem(key);
    return Object.prototype.hasOwnProperty.call(nameRecord().ec, key) ? nameRecord().ec[key]! : null;
  },
  set(key: string, value: string): void {
    const s = session();
    if (s) return s.setItem(key, value);
    const record = nameRecord();
    record.ec[key] = value;
    window.name = JSON.stringify(record);
  },
  remove(key: string): void {
    const s = session();
    if (s) return s.removeItem(key);
    const record = nameRecord();
    if (key in record.ec) {
      delete record.ec[key];
      window.name = JSON.stringify(record);
    }
  },
  keys(): string[] {
    const s = session();
    if (s) return Array.from({ length: s.length }, (_, i) => s.key(i)).filter((k): k is string => k !== null);
    return Object.keys(nameRecord().ec);
  },
};

/** The same as `tabStorage`, as an inline script defining `T` with get/set/del (hand-off pages). */
export const TAB_STORAGE_JS =
  'var T=(function(){function n(){try{var v=JSON.parse(window.name||"{}");return v&&typeof v==="object"&&v.ec&&typeof v.ec==="object"?v:{ec:{}}}catch(e){return{ec:{}}}}' +
  'function s(){try{var x=window.sessionStorage;x.getItem("ec.probe");return x}catch(e){return null}}' +
  "return{get:function(k){var x=s();if(x)return x.getItem(k);var o=n();return Object.prototype.hasOwnProperty.call(o.ec,k)?o.ec[k]:null}," +
  "set:function(k,v){var x=s();if(x)return x.setItem(k,v);var o=n();o.ec[k]=v;window.name=JSON.stringify(o)}," +
  "del:function(k){var x=s();if(x)return x.removeItem(k);var o=n();if(k in o.ec){delete o.ec[k];window.name=JSON.stringify(o)}}}})();";
