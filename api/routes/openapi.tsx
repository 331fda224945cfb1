import { Hono } from 'hono';
import { manifestReader } from '../../web/manifest';
import { ApiDocsPage, type OpenApiDocument } from '../../web/pages/api-docs';
import { renderPage } from '../../web/render';
import { openApiDocument } from '../openapi/document';
import type { AppDeps, AppEnv } from '../deps';

/** GET /api/openapi.json (the /v1 API's OpenAPI 3.1 document) and GET /api/docs (the same, as a page). */
export function openApiRoutes({ config, publicDir }: AppDeps) {
  const app = new Hono<AppEnv>();
  const manifest = manifestReader(publicDir);
  // Made once: it depends only on the code and APP_URL.
  const document = openApiDocument(config.appUrl);

  app.get('/api/openapi.json', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(document);
  });

  app.get('/api/docs', (c) => {
    const html = renderPage(
      <ApiDocsPage document={document as unknown as OpenApiDocument} />,
      { title: 'Event Finder API', description: 'The /v1 API and the MCP server of Event Finder: calls, scopes, bodies and replies.' },
      manifest(),
    );
    c.header('Cache-Control', 'public, max-age=300');
    return c.html(html);
  });
  return app;
}
