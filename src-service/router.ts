// Maps a method and raw path to an endpoint; 404 for an unknown path, 405 (with Allow) for a
// known path and the wrong method.
import * as ep from './endpoints';
import { HttpError } from './http-error';

export interface Match {
  endpoint: ep.Endpoint;
  param: string;
  /** The endpoint reads a JSON body. */
  hasBody: boolean;
}

type Methods = Partial<Record<string, ep.Endpoint>>;

const PREFIX = '/api/v1';

function decode(raw: string, onError: () => HttpError): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw onError();
  }
}

function pick(methods: Methods, method: string, param: string): Match {
  const endpoint = methods[method];
  if (!endpoint) {
    throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed here.`, {
      headers: { Allow: Object.keys(methods).join(', ') },
    });
  }
  return { endpoint, param, hasBody: method === 'POST' || method === 'PUT' };
}

/** The endpoint for a request; throws HttpError 404/405/400. */
export function route(method: string, rawPath: string): Match {
  const notFound = () => new HttpError(404, 'not_found', `No such endpoint: ${rawPath}`);
  if (!rawPath.startsWith(PREFIX + '/')) throw notFound();
  const rest = rawPath.slice(PREFIX.length);
  switch (rest) {
    case '/customers':
      return pick({ GET: ep.listCustomers, POST: ep.createCustomer }, method, '');
    case '/routes':
      return pick({ GET: ep.listRoutes, POST: ep.createRoute }, method, '');
    case '/territories':
      return pick({ GET: ep.listTerritories }, method, '');
    case '/user':
      return pick({ GET: ep.getUser }, method, '');
    case '/user/customfields':
      return pick({ PUT: ep.updateCustomFields }, method, '');
  }
  const search = /^\/customers\/search(?:\/(.*))?$/s.exec(rest);
  if (search) {
    const term = decode(
      search[1] ?? '',
      () => new HttpError(400, 'invalid_search', 'The search term is not valid URL encoding.'),
    );
    return pick({ GET: ep.searchCustomers }, method, term);
  }
  const one = /^\/customers\/([^/]+)$/.exec(rest);
  if (one) {
    const id = decode(one[1] as string, notFound);
    return pick(
      { GET: ep.getCustomer, PUT: ep.updateCustomer, DELETE: ep.deleteCustomer },
      method,
      id,
    );
  }
  throw notFound();
}
