import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { API_TOKEN_SCOPES, type ApiTokenReply, type ApiTokenScope, type CreatedApiTokenReply } from '../../core/contract/api-tokens';
import { apiFetch, errorText, postJson } from '../client/http';
import { readReply, replyJson, shapeOf } from '../client/replies';
import { formatDate } from '../client/format';
import { Alert } from './alert';
import { ConfirmDialog } from './confirm-dialog';

const SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read your timers, their runs and events, and your searches',
  search: 'Search (each search uses one of your searches)',
  timers: 'Create, change, run and delete timers',
};

const DEFAULT_SCOPES: ApiTokenScope[] = ['read'];

/** A refusal's sentence, or one that names the status when the reply has none. */
async function refusalText(res: Response, what: string): Promise<string> {
  const { json, schemas } = await replyJson(res);
  return shapeOf(schemas.errorReplySchema, json)?.error ?? `${what} (the server answered ${res.status}).`;
}

/**
 * Personal API tokens (docs/decisions/public-api-and-mcp.md): made with a name and scopes, shown once, listed by name and first
 * characters, revoked with a click. The token is for the user's own tools and agents (/v1, /mcp).
 */
export function ApiTokens() {
  const id = useId();
  const [tokens, setTokens] = useState<ApiTokenReply[] | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(DEFAULT_SCOPES);
  const [created, setCreated] = useState<CreatedApiTokenReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const shown = useRef<HTMLInputElement>(null);
  // The token whose Revoke was pressed; kept after its confirmation closes, so the closing dialog keeps its title.
  const [asked, setAsked] = useState<ApiTokenReply | null>(null);
  const [asking, setAsking] = useState(false);
  const [revoking, setRevoking] = useState(false);
  // The token just revoked (a new object each time, so the effect below runs again for a same-named one).
  const [revoked, setRevoked] = useState<{ name: string } | null>(null);
  const nameField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void (async () => {
      try {
        const res = await apiFetch('/api/tokens');
        if (!res.ok) return setError(await refusalText(res, 'Your tokens could not be loaded'));
        setTokens(await readReply(res, (s) => s.apiTokensReplySchema));
      } catch (err) {
        console.warn('Tokens not loaded:', errorText(err));
        setError('Your tokens could not be loaded: the server could not be reached. Please try again.');
      }
    })();
  }, []);

  // The new token is shown once: focus it, selected, so it can be copied at once.
  useEffect(() => {
    if (created) shown.current?.select();
  }, [created]);

  // Its Revoke button left the page with it: focus goes to the form for a new token, below the sentence that says so.
  useEffect(() => {
    if (revoked) nameField.current?.focus();
  }, [revoked]);

  async function copy(token: string) {
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the token stays selected to copy by hand.
      shown.current?.select();
    }
  }

  async function create(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setCreated(null);
    setCopied(false);
    try {
      const res = await postJson('/api/tokens', { name, scopes });
      if (!res.ok) return setError(await refusalText(res, 'The token was not made'));
      const token = await readReply(res, (s) => s.createdApiTokenReplySchema);
      setCreated(token);
      // The next token starts from the form's defaults, not from this one's name and scopes.
      setName('');
      setScopes(DEFAULT_SCOPES);
      const { token: _, ...listed } = token;
      setTokens((list) => [...(list ?? []), listed]);
    } catch (err) {
      console.warn('Token not made:', errorText(err));
      setError('The token was not made: the server could not be reached. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function revoke(token: ApiTokenReply) {
    setRevoking(true);
    setError(null);
    setRevoked(null);
    try {
      const res = await apiFetch(`/api/tokens/${token.id}`, { method: 'DELETE' });
      if (!res.ok && res.status !== 404) return setError(await refusalText(res, 'The token was not revoked'));
      setTokens((list) => list?.filter((t) => t.id !== token.id) ?? null);
      if (created?.id === token.id) setCreated(null);
      setRevoked({ name: token.name });
    } catch (err) {
      console.warn('Token not revoked:', errorText(err));
      setError('The token was not revoked: the server could not be reached. Please try again.');
    } finally {
      // Closed after the outcome: a refusal's sentence shows and focus goes back to the token's Revoke button.
      setRevoking(false);
      setAsking(false);
    }
  }

  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((list) => (on ? API_TOKEN_SCOPES.filter((s) => s === scope || list.includes(s)) : list.filter((s) => s !== scope)));

  return (
    <div className="api-tokens">
      <p>
        Let your own tools and AI agents use Event Finder through its <a href="/api/docs">API and MCP server</a>. A token can do only what
        you tick; searches made with it use your searches like any other.
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {revoked ? <Alert tone="success">The token “{revoked.name}” is revoked: programs using it can no longer call the API.</Alert> : null}
      {created ? (
        <Alert tone="success">
          <label htmlFor={`${id}-new`}>Your new token “{created.name}”. Copy it now: it is shown only this once.</label>
          <span className="api-tokens__copy">
            <input id={`${id}-new`} ref={shown} className="api-tokens__secret" readOnly value={created.token} />
            <button type="button" className="button button--secondary button--small" onClick={() => void copy(created.token)}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          </span>
        </Alert>
      ) : null}
      {tokens === null ? (
        <p>Loading tokens…</p>
      ) : tokens.length === 0 ? (
        <p>You have no API tokens.</p>
      ) : (
        <ul className="api-tokens__list" aria-label="Your API tokens">
          {tokens.map((t) => (
            <li key={t.id} className="api-tokens__item">
              <div>
                <strong>{t.name}</strong> <code>{t.hint}</code>
                <p className="api-tokens__meta">
                  {t.scopes.join(', ')} · <span className="api-tokens__when">made {formatDate(t.created_at)}</span> ·{' '}
                  <span className="api-tokens__when">{t.last_used_at ? `last used ${formatDate(t.last_used_at)}` : 'never used'}</span>
                </p>
              </div>
              <button
                type="button"
                className="button button--secondary button--small"
                aria-label={`Revoke ${t.name}`}
                onClick={() => {
                  setRevoked(null);
                  setAsked(t);
                  setAsking(true);
                }}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="api-tokens__form" onSubmit={create}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Token name</label>
          <input
            id={`${id}-name`}
            ref={nameField}
            type="text"
            autoComplete="off"
            maxLength={60}
            placeholder="Open WebUI"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <fieldset className="api-tokens__scopes">
          <legend>It may</legend>
          {API_TOKEN_SCOPES.map((scope) => (
            <label key={scope} className="api-tokens__check">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
              {SCOPE_LABELS[scope]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button" disabled={busy}>
          Create token
        </button>
      </form>
      <ConfirmDialog
        open={asking}
        title={`Revoke the token “${asked?.name ?? ''}”?`}
        confirmLabel={revoking ? 'Revoking…' : 'Revoke token'}
        cancelLabel="Keep token"
        danger
        busy={revoking}
        onConfirm={() => asked && void revoke(asked)}
        onCancel={() => setAsking(false)}
      >
        <p>Programs using this token can no longer call the API. This cannot be undone; you can make a new token below.</p>
      </ConfirmDialog>
    </div>
  );
}
