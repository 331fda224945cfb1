import * as z from 'zod/mini';

/** POST /api/auth/google {token}: the identity provider's credential; anything unreadable fails verification. */
export const googleSignInRequestSchema = z.object({ token: z.optional(z.unknown()) });

/** POST /api/auth/google's reply: status 'success' on a good sign-in, else 'error' with a sentence. */
export const signInReplySchema = z.object({ status: z.string(), error: z.optional(z.string()) });
export type SignInReply = z.infer<typeof signInReplySchema>;

/** GET /api/check-session. */
export const sessionReplySchema = z.object({ loggedIn: z.boolean() });
export type SessionReply = z.infer<typeof sessionReplySchema>;

/** GET /api/logout. */
export const logoutReplySchema = z.object({ message: z.string() });
export type LogoutReply = z.infer<typeof logoutReplySchema>;
