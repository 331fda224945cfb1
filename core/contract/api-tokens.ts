import * as z from 'zod/mini';

/** What a personal API token may do: read timers, runs and searches; search (costs credits); manage timers. */
export const API_TOKEN_SCOPES = ['read', 'search', 'timers'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_NAME_MAX = 60;
const NAME = `Give the token a name of 1 to ${API_TOKEN_NAME_MAX} characters, such as "Open WebUI".`;
const SCOPES = `Choose at least one scope: ${API_TOKEN_SCOPES.join(', ')}.`;

/** POST /api/tokens {name, scopes}. */
export const createApiTokenRequestSchema = z.object(
  {
    name: z.string({ error: NAME }).check(z.trim(), z.minLength(1, NAME), z.maxLength(API_TOKEN_NAME_MAX, NAME)),
    scopes: z.array(z.enum(API_TOKEN_SCOPES, { error: SCOPES }), { error: SCOPES }).check(z.minLength(1, SCOPES)),
  },
  { error: 'The request body must be a JSON object with name and scopes.' },
);
export type CreateApiTokenRequest = z.infer<typeof createApiTokenRequestSchema>;

/** A token as GET /api/tokens lists it: never the token itself, only its first characters (`hint`). */
export const apiTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  hint: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
});
export type ApiTokenReply = z.infer<typeof apiTokenSchema>;
export const apiTokensReplySchema = z.array(apiTokenSchema);

/** POST /api/tokens's reply: the listed token plus the token itself, shown this once. */
export const createdApiTokenReplySchema = z.object({ ...apiTokenSchema.shape, token: z.string() });
export type CreatedApiTokenReply = z.infer<typeof createdApiTokenReplySchema>;
