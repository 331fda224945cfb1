import { describe, expect, it } from 'vitest';
import { parseStripeForm } from './stripe-form';

describe('parseStripeForm', () => {
  it('decodes the bracket notation of the official client', () => {
    const form = parseStripeForm(
      new URLSearchParams(
        'mode=subscription&line_items[0][price]=price_1&line_items[0][quantity]=1&metadata[user_id]=7&lookup_keys[0]=a&lookup_keys[1]=b&success_url=http%3A%2F%2Fx%2F%3Fs%3D%7BCHECKOUT_SESSION_ID%7D',
      ),
    );
    expect(form).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_1', quantity: '1' }],
      metadata: { user_id: '7' },
      lookup_keys: ['a', 'b'],
      success_url: 'http://x/?s={CHECKOUT_SESSION_ID}',
    });
  });
});
