import { describe, expect, it } from 'vitest';
import { checkChannelAddress } from './address';

// Resolved here, never looked up: a public address for any host, so only the address's own shape is judged.
const guard = { allow: [], resolve: async () => [{ address: '20.42.64.1', family: 4 }] };

// The shape Teams shows for a "Post to a channel when a webhook request is received" workflow whose trigger lets
// anyone run it (the signature here is made up).
const TEAMS =
  'https://prod-52.westeurope.logic.azure.com:443/workflows/4f1b2c3d/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=Zm9vYmFyYmF6';

describe('a channel address checked at save', () => {
  it('takes a signed Teams Workflows address as it is', async () => {
    expect(await checkChannelAddress('teams', ` ${TEAMS} `, null, guard)).toEqual({ url: TEAMS, token: null });
  });

  it('reads a Teams address copied out of HTML, with &amp; for &, as the address it stands for', async () => {
    const copied = TEAMS.replaceAll('&', '&amp;');
    expect((await checkChannelAddress('teams', copied, null, guard)).url).toBe(TEAMS);
  });

  it('refuses an unsigned Teams address, saying how to get a signed one', async () => {
    const unsigned = TEAMS.replace(/&sig=[^&]*/, '');
    await expect(checkChannelAddress('teams', unsigned, null, guard)).rejects.toThrow(
      /no signature \(sig=…\).*“Who can trigger the flow\?” to “Anyone”/,
    );
  });

  it('leaves other services’ addresses alone, &amp; included', async () => {
    const slack = 'https://hooks.slack.com/services/T000/B000/XXXX?a=1&amp;b=2';
    expect((await checkChannelAddress('slack', slack, null, guard)).url).toBe(slack);
  });
});
