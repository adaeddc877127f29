import type { Model } from '@ninefold/model';
import { provisionUsers, type Store } from '@ninefold/server';
import type { FastifyInstance } from 'fastify';

/**
 * A request as a browser would send it, handed to the prototype API's `app.inject`, and its answer as a
 * `Response`: the client's requests are real HTTP requests, only without a port. Multipart bodies are
 * encoded as a browser encodes them, with their boundary in the content type.
 */
export async function injectRequest(
  app: FastifyInstance,
  input: RequestInfo | URL,
  init: RequestInit = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  let payload: Buffer | undefined;
  if (init.body instanceof FormData) {
    const encoded = new Response(init.body);
    headers['content-type'] = encoded.headers.get('content-type') ?? '';
    payload = Buffer.from(await encoded.arrayBuffer());
  } else if (init.body instanceof URLSearchParams) {
    payload = Buffer.from(init.body.toString());
  } else if (typeof init.body === 'string') {
    payload = Buffer.from(init.body);
  }
  const answer = await app.inject({
    method: (init.method ?? 'GET') as 'GET',
    url: String(input),
    headers,
    ...(payload ? { payload } : {}),
  });
  return new Response(answer.statusCode === 204 ? null : new Uint8Array(answer.rawPayload), {
    status: answer.statusCode,
    statusText: answer.statusMessage,
    headers: Object.entries(answer.headers).flatMap(([name, value]) =>
      value === undefined ? [] : (Array.isArray(value) ? value : [String(value)]).map((v) => [name, v]),
    ) as [string, string][],
  });
}

/**
 * Makes the owner of the rich example and signs in as them through the API's own sign-in call. Tests of
 * the calls act as the owner, who may do everything: they are about the calls, not about permissions.
 */
export async function signInAsOwner(
  app: FastifyInstance,
  store: Store,
  model: Model,
): Promise<{ token: string; user: { id: string; email: string; role: string } }> {
  const email = 'owner@shop.test';
  const made = await provisionUsers(store, model, {
    users: [{ email, role: 'owner', attributes: {} }],
    demo: false,
  });
  const password = made.ok ? made.users[0]?.secret : undefined;
  const answer = await app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password } });
  if (answer.statusCode !== 200) throw new Error(`sign-in as the owner answered ${answer.statusCode}`);
  return answer.json();
}
