import type { FieldError } from "@/lib/http/api-error";
import { placeErrors, type PlacedErrors } from "@/lib/forms/field-errors";

/**
 * The shop form as staff think of it, and the `shopInfoAll` it becomes (§4.8: a string of
 * serialized JSON `{business: {base_info}}`). Pure: the form page, its tests and the app's routes
 * share these rules. Fields of `base_info` the form does not show (`offset_type`, `special`, …) are
 * kept from the shop as it was.
 */

export type ShopForm = {
  sid: string;
  businessName: string;
  branchName: string;
  telephone: string;
  province: string;
  city: string;
  district: string;
  address: string;
  /** Each a comma-joined category path, e.g. `美食,咖啡厅`. */
  categories: string[];
  longitude: string;
  latitude: string;
  /** Photo URLs, one per line. */
  photos: string;
  openTime: string;
  avgPrice: string;
  introduction: string;
  recommend: string;
};

export type ShopField = keyof ShopForm;

/** Form key → the `base_info` field it is (§4.8). */
export const BASE_INFO_FIELD: Record<ShopField, string> = {
  sid: "sid",
  businessName: "business_name",
  branchName: "branch_name",
  telephone: "telephone",
  province: "province",
  city: "city",
  district: "district",
  address: "address",
  categories: "categories",
  longitude: "longitude",
  latitude: "latitude",
  photos: "photo_list",
  openTime: "open_time",
  avgPrice: "avg_price",
  introduction: "introduction",
  recommend: "recommend",
};

/** §4.8's required fields, as form keys. */
export const REQUIRED_SHOP_FIELDS: readonly ShopField[] = ["sid", "telephone", "businessName", "branchName", "province", "city", "district", "address", "categories", "longitude", "latitude"];

/** Common category paths offered to pick from (any other path can be typed). */
export const CATEGORY_SUGGESTIONS = ["美食,咖啡厅", "美食,中餐厅", "美食,快餐", "美食,甜品饮品", "购物,服装", "购物,超市便利店", "生活服务,美容美发", "休闲娱乐,电影院", "酒店,经济型酒店", "运动健身,健身中心"];

export const emptyShopForm = (): ShopForm => ({
  sid: "",
  businessName: "",
  branchName: "",
  telephone: "",
  province: "",
  city: "",
  district: "",
  address: "",
  categories: [],
  longitude: "",
  latitude: "",
  photos: "",
  openTime: "",
  avgPrice: "",
  introduction: "",
  recommend: "",
});

export type ShopProblem =
  | { code: "required" }
  | { code: "tooLong"; max: number }
  | { code: "number" }
  | { code: "range"; min: number; max: number }
  | { code: "telephone" }
  | { code: "photoUrl"; line: number }
  | { code: "category"; path: string }
  | { code: "sidTaken" };

const MAX_TEXT = 255;
const MAX_LONG_TEXT = 2000;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const TELEPHONE = /^[0-9+\-() ]{3,32}$/;

export const photoLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** A category path: non-empty levels joined by commas (full- or half-width), spaces around them dropped. */
export function normalizeCategory(path: string): string | undefined {
  const levels = path.split(/[,，]/).map((l) => l.trim());
  return levels.length > 0 && levels.every(Boolean) ? levels.join(",") : undefined;
}

function decimalProblem(value: string, min: number, max: number, required: boolean): ShopProblem | undefined {
  const v = value.trim();
  if (v === "") return required ? { code: "required" } : undefined;
  if (!DECIMAL.test(v)) return { code: "number" };
  const n = Number(v);
  return n < min || n > max ? { code: "range", min, max } : undefined;
}

/** The form's problems by field (none: it may be sent). §4.8's required fields first, then shapes. */
export function validateShopForm(form: ShopForm): Partial<Record<ShopField, ShopProblem>> {
  const problems: Partial<Record<ShopField, ShopProblem>> = {};
  for (const key of ["sid", "businessName", "branchName", "province", "city", "district", "address", "openTime"] as const) {
    const v = form[key].trim();
    if (v === "" && REQUIRED_SHOP_FIELDS.includes(key)) problems[key] = { code: "required" };
    else if (v.length > MAX_TEXT) problems[key] = { code: "tooLong", max: MAX_TEXT };
  }
  for (const key of ["introduction", "recommend"] as const) if (form[key].trim().length > MAX_LONG_TEXT) problems[key] = { code: "tooLong", max: MAX_LONG_TEXT };
  const tel = form.telephone.trim();
  if (tel === "") problems.telephone = { code: "required" };
  else if (!TELEPHONE.test(tel)) problems.telephone = { code: "telephone" };
  if (form.categories.length === 0) problems.categories = { code: "required" };
  else {
    const bad = form.categories.find((c) => !normalizeCategory(c));
    if (bad !== undefined) problems.categories = { code: "category", path: bad };
  }
  const lng = decimalProblem(form.longitude, -180, 180, true);
  if (lng) problems.longitude = lng;
  const lat = decimalProblem(form.latitude, -90, 90, true);
  if (lat) problems.latitude = lat;
  const price = decimalProblem(form.avgPrice, 0, 1e9, false);
  if (price) problems.avgPrice = price;
  const badPhoto = photoLines(form.photos).findIndex((url) => !/^https?:\/\/\S+$/i.test(url));
  if (badPhoto >= 0) problems.photos = { code: "photoUrl", line: badPhoto + 1 };
  return problems;
}

type BaseInfo = Record<string, unknown>;

/** `base_info` of a `shopInfoAll` string (undefined when it is not one). */
export function baseInfoOf(shopInfoAll: string | null | undefined): BaseInfo | undefined {
  if (!shopInfoAll) return undefined;
  try {
    const parsed = JSON.parse(shopInfoAll) as { business?: { base_info?: unknown } };
    const info = parsed?.business?.base_info;
    return info && typeof info === "object" && !Array.isArray(info) ? (info as BaseInfo) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** The form of a shop as the platform holds it (its `shopInfoAll`). */
export function shopFormFrom(shopInfoAll: string | null | undefined): ShopForm {
  const info = baseInfoOf(shopInfoAll) ?? {};
  const photos = Array.isArray(info.photo_list) ? info.photo_list.map((p) => str((p as { photo_url?: unknown })?.photo_url)).filter(Boolean) : [];
  return {
    sid: str(info.sid),
    businessName: str(info.business_name),
    branchName: str(info.branch_name),
    telephone: str(info.telephone),
    province: str(info.province),
    city: str(info.city),
    district: str(info.district),
    address: str(info.address),
    categories: Array.isArray(info.categories) ? info.categories.map(str).filter(Boolean) : [],
    longitude: str(info.longitude),
    latitude: str(info.latitude),
    photos: photos.join("\n"),
    openTime: str(info.open_time),
    avgPrice: str(info.avg_price),
    introduction: str(info.introduction),
    recommend: str(info.recommend),
  };
}

/**
 * The `shopInfoAll` object to send (§4.8): the form's fields over the shop's other `base_info`
 * fields (`original`, when editing). Coordinates and the price go as JSON numbers; optional fields
 * left empty are left out.
 */
export function shopInfoAllOf(form: ShopForm, original?: string | null): { business: { base_info: BaseInfo } } {
  const kept = { ...(baseInfoOf(original) ?? {}) };
  for (const field of ["recommend", "introduction", "photo_list", "open_time", "avg_price"]) delete kept[field];
  const info: BaseInfo = {
    ...kept,
    sid: form.sid.trim(),
    telephone: form.telephone.trim(),
    business_name: form.businessName.trim(),
    branch_name: form.branchName.trim(),
    province: form.province.trim(),
    city: form.city.trim(),
    district: form.district.trim(),
    address: form.address.trim(),
    categories: form.categories.map((c) => normalizeCategory(c) ?? c.trim()),
    longitude: Number(form.longitude.trim()),
    latitude: Number(form.latitude.trim()),
  };
  const photos = photoLines(form.photos);
  if (photos.length > 0) info.photo_list = photos.map((photo_url) => ({ photo_url }));
  if (form.openTime.trim()) info.open_time = form.openTime.trim();
  if (form.avgPrice.trim()) info.avg_price = Number(form.avgPrice.trim());
  if (form.introduction.trim()) info.introduction = form.introduction.trim();
  if (form.recommend.trim()) info.recommend = form.recommend.trim();
  return { business: { base_info: info } };
}

/**
 * Coordinates pasted from a map's coordinate picker: `lng,lat` (the order GCJ-02 pickers copy), with
 * a comma, a full-width comma or spaces between. A pair whose first number cannot be a latitude
 * beyond ±90 is read as given; undefined when it is not two numbers.
 */
export function parseCoordinates(text: string): { longitude: string; latitude: string } | undefined {
  const parts = text.trim().split(/\s*[,，]\s*|\s+/).filter(Boolean);
  if (parts.length !== 2 || !parts.every((p) => DECIMAL.test(p))) return undefined;
  const [longitude, latitude] = parts as [string, string];
  if (Math.abs(Number(latitude)) > 90 || Math.abs(Number(longitude)) > 180) return undefined;
  return { longitude, latitude };
}

const FORM_KEY_OF_BASE_INFO = Object.fromEntries(Object.entries(BASE_INFO_FIELD).map(([key, field]) => [field, key])) as Record<string, ShopField>;

/** The form key of a field name the platform or the app's route gives (`sid`, `shopInfoAll.business.base_info.sid`). */
export function shopFieldOf(name: string): ShopField | undefined {
  const last = name.replace(/\[\d+\]/g, "").split(".").filter(Boolean).pop() ?? "";
  if (last in BASE_INFO_FIELD) return last as ShopField;
  return FORM_KEY_OF_BASE_INFO[last];
}

/**
 * A refusal on the form. Stores answer `{error: {code, message}}` without `fieldErrors` (§7.5), so a
 * message that names a `base_info` field (`shopInfoAll.business.base_info.telephone is required`, or
 * a bare `sid`) is put on that field too.
 */
export function placeShopErrors(fieldErrors: readonly FieldError[], message: string): PlacedErrors {
  const placed = placeErrors(fieldErrors, shopFieldOf);
  if (fieldErrors.length === 0 && message) {
    const named = /base_info\.([a-z_]+)/.exec(message)?.[1] ?? /\b(sid|telephone|business_name|branch_name|province|city|district|address|categories|longitude|latitude|avg_price|photo_list|open_time)\b/.exec(message)?.[1];
    const key = named ? shopFieldOf(named) : undefined;
    if (key) placed.byField[key] ??= message;
  }
  return placed;
}
