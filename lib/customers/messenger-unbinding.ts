export type Identity = { identityType?: string | null; identityValue?: string | null };

/** The unbinding request of a customer's messenger identities: the union id wins over an open id (§4.1). */
export function unbindingBody(identities: Identity[]): { unionid: string } | { openid: string } | undefined {
  const unionid = identities.find((i) => i.identityType === "messenger-unionid" && i.identityValue)?.identityValue;
  if (unionid) return { unionid };
  const openid = identities.find((i) => i.identityType === "messenger" && i.identityValue)?.identityValue;
  return openid ? { openid } : undefined;
}
