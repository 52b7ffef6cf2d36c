// The server's API: one GET per question, JSON in the one error shape on failure.

export class ApiError extends Error {
  constructor(status, body, retryAfter = null) {
    super(body && body.error ? body.error : `the server answered ${status}`);
    this.status = status; // 0: the server could not be reached
    this.body = body || {};
    this.retryAfter = retryAfter; // seconds, from a 503's Retry-After
  }

  // Worth trying again as it is: the server was busy, stopping or out of reach.
  get retryable() {
    return this.status === 0 || this.status === 503;
  }
}

export async function get(path, params = {}) {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, value);
  }
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" } });
  } catch {
    throw new ApiError(0, { error: "the server cannot be reached: is it running? (your connection or the server may be down)" });
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) {
    const wait = Number(response.headers.get("Retry-After"));
    throw new ApiError(response.status, body, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return body;
}
