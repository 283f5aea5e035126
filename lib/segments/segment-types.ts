import type { SegmentDefinition, SegmentField } from "./segment-conditions";

/** What the segments routes answer (the browser's types; no server code). */

export type SegmentSchedule = "off" | "hourly" | "daily";
export type SegmentActor = { userId: string; name: string };

export type SegmentView = {
  id: string;
  name: string;
  definition: SegmentDefinition;
  listId: string | null;
  listName: string | null;
  schedule: SegmentSchedule;
  createdBy: SegmentActor | null;
  createdAt: number;
  updatedAt: number;
  lastSyncedAt: number | null;
};

export type SyncRunView = {
  id: string;
  segmentId: string;
  listId: string;
  state: "running" | "done" | "failed";
  startedBy: SegmentActor | null;
  startedAt: number;
  finishedAt: number | null;
  added: number;
  removed: number;
  failed: number;
  memberCalls: number;
  failures: Array<{ customerId: string; reason: string }>;
  error: string | null;
};

export type PreviewRowView = {
  id: string;
  displayName: string | null;
  email: string | null;
  mobile: string | null;
  stage: string | null;
  source: string | null;
  gender: number | null;
  dateCreated: string | null;
  lastUpdated: string | null;
  birthMonth: number | null;
  attrs: Record<string, unknown> | null;
  identityTypes: string[];
  tags: string[];
  orderCount: number | null;
  orderAmount: number | null;
  lastOrderAt: string | null;
  activityScore: number | null;
};

export type SegmentListAnswer = { segments: SegmentView[] };
export type SegmentAnswer = { segment: SegmentView };
export type SegmentDetailAnswer = { segment: SegmentView; runs: SyncRunView[]; running: boolean };
export type SegmentCountAnswer = { count: number; indexed: number; ready: boolean };
export type SegmentPreviewAnswer = { rows: PreviewRowView[]; hasMore: boolean };
export type SegmentSyncAnswer = { started: boolean; taskId: string; segment: SegmentView };
export type SegmentTagAnswer = { tagged: number; failed: number; failures: Array<{ customerId: string; reason: string }> };
export type { SegmentDefinition, SegmentField };
