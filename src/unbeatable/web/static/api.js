// The server's API: one GET per question, JSON in the one error shape on failure.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the server answered ${status}`);
    this.status = status;
    this.body = body || {};
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
  } catch (error) {
    throw new ApiError(0, { error: `the server cannot be reached (${error.message})` });
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}
