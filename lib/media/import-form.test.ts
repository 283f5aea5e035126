import { describe, expect, it } from "vitest";
import { fileListOf, MAX_IMPORT_FILES, newImportRow, OSS_PATH, validateImportRows } from "./import-form";

describe("the media import form (§4.6)", () => {
  it("a path is oss://<bucket>/<file>: no other scheme, no folder, a bucket as object stores name them", () => {
    for (const ok of ["oss://media-bucket/2026/11/views.csv", "oss://abc/x"]) expect(OSS_PATH.test(ok), ok).toBe(true);
    for (const bad of ["s3://bucket/x.csv", "oss://bucket/", "oss://bucket/folder/", "oss://Bucket/x", "oss://ab/x", "oss://bucket/a b.csv", "oss://bucket"]) expect(OSS_PATH.test(bad), bad).toBe(false);
  });

  it("each row is checked: required, an oss path, the same file twice", () => {
    const rows = [
      { ...newImportRow(1), file: "" },
      { ...newImportRow(2), file: "https://x/y.csv" },
      { ...newImportRow(3), file: "oss://bucket-a/day.csv" },
      { ...newImportRow(4), file: " oss://bucket-a/day.csv " },
    ];
    expect(validateImportRows(rows)).toEqual({ "rows.0.file": { code: "required" }, "rows.1.file": { code: "ossPath" }, "rows.3.file": { code: "duplicate", first: 3 } });
    expect(validateImportRows(Array.from({ length: MAX_IMPORT_FILES + 1 }, (_, i) => ({ ...newImportRow(i), file: `oss://bucket-a/${i}.csv` }))).rows).toEqual({ code: "tooMany", max: MAX_IMPORT_FILES });
  });

  it("the fileList sent: eventType per file, none for “from the first column”", () => {
    expect(
      fileListOf([
        { key: 1, file: " oss://bucket-a/v.csv ", eventType: "event.mediaView" },
        { key: 2, file: "oss://bucket-a/c.csv", eventType: "event.mediaClick" },
        { key: 3, file: "oss://bucket-a/m.csv", eventType: "column" },
      ]),
    ).toEqual([{ file: "oss://bucket-a/v.csv", eventType: "event.mediaView" }, { file: "oss://bucket-a/c.csv", eventType: "event.mediaClick" }, { file: "oss://bucket-a/m.csv" }]);
  });
});
