/**
 * The embedded Stripe's hosted pages: Checkout and the customer portal.
 * Server-rendered, no script: forms post back to the page; every value is
 * escaped.
 */
import {
  formatAmount,
  formatDay,
  formatPrice,
  type PaymentMethod,
  type Price,
  type Subscription,
} from './stripe-store';

export const BUSINESS_NAME = 'Tunesmith';

const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const css = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f9fc}
main{max-width:460px;margin:0 auto;padding:32px 20px 48px}
header{display:flex;align-items:center;gap:12px;margin-bottom:24px}
.brand{font-weight:700;font-size:18px}.test{font-size:12px;font-weight:600;color:#a04100;background:#ffe9c9;border-radius:4px;padding:2px 6px}
a{color:#635bff}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #a5a0ff;outline-offset:2px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 12px}.muted{color:#6a7383;margin:0}
.amount{font-size:32px;font-weight:700;margin:8px 0 0}
section{background:#fff;border:1px solid #e3e8ee;border-radius:8px;padding:20px;margin-top:20px}
label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
input,select{width:100%;font:inherit;padding:10px 12px;border:1px solid #cfd7df;border-radius:6px;background:#fff}
input[aria-invalid=true]{border-color:#df1b41}
.row{display:flex;gap:12px;align-items:flex-end}.row>div{flex:1}
button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:12px 16px;margin-top:18px;width:100%;cursor:pointer;background:#635bff;color:#fff}
button.secondary{background:#fff;color:#1a1f36;border:1px solid #cfd7df}button.danger{background:#df1b41}
.alert{color:#df1b41;font-weight:600;margin:14px 0 0}.notice{background:#e5f6ea;color:#0d6c36;border-radius:6px;padding:10px 12px;font-weight:600}
dl{margin:0}dt{color:#6a7383;font-size:14px}dd{margin:0 0 10px;font-weight:600}
.back{display:inline-block;margin-bottom:16px}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${css}</style></head>
<body><main>
<header><span class="brand">${BUSINESS_NAME}</span><span class="test">Test mode</span></header>
${body}
</main></body></html>`;
}

export interface CardFieldsState {
  /** The message of a refused card and the field it concerns. */
  error?: { field: 'number' | 'expiry' | 'cvc'; message: string };
  /** What was typed (never the number again). */
  expiry?: string;
  cvc?: string;
}

function cardFields(state: CardFieldsState): string {
  const invalid = (field: string) =>
    state.error?.field === field ? ' aria-invalid="true" aria-describedby="card-error"' : '';
  return `<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required${invalid('number')}>
<div class="row"><div><label for="card_expiry">Expiration (MM / YY)</label>
<input id="card_expiry" name="card_expiry" autocomplete="cc-exp" placeholder="MM / YY" value="${escapeHtml(state.expiry)}" required${invalid('expiry')}></div>
<div><label for="card_cvc">CVC</label>
<input id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" value="${escapeHtml(state.cvc)}" required${invalid('cvc')}></div></div>
${state.error ? `<p class="alert" id="card-error" role="alert">${escapeHtml(state.error.message)}</p>` : ''}`;
}

/** Checkout for one subscription price. */
export function checkoutPage(input: {
  actionUrl: string;
  cancelUrl: string | null;
  productName: string;
  price: Price;
  quantity: number;
  email: string | null;
  card: CardFieldsState;
}): string {
  const { price } = input;
  const back = input.cancelUrl ? `<a class="back" href="${escapeHtml(input.cancelUrl)}">← Back</a>` : '';
  return page(
    `Subscribe to ${input.productName}`,
    `${back}
<h1>Subscribe to ${escapeHtml(input.productName)}</h1>
<p class="amount">${escapeHtml(formatAmount(price.unit_amount * input.quantity, price.currency))}</p>
<p class="muted">${escapeHtml(price.recurring ? `per ${price.recurring.interval}` : 'once')}</p>
<section aria-labelledby="pay-heading">
<h2 id="pay-heading">Pay with card</h2>
${input.email ? `<p class="muted">Email: <strong>${escapeHtml(input.email)}</strong></p>` : ''}
<form method="post" action="${escapeHtml(input.actionUrl)}" novalidate>
${cardFields(input.card)}
<button type="submit">Subscribe</button>
</form>
</section>`,
  );
}

/** A Checkout session that was paid or has expired. */
export function closedCheckoutPage(cancelUrl: string | null): string {
  return page(
    'Checkout unavailable',
    `<h1>This checkout session is no longer available.</h1>
<p class="muted">It was completed or it expired. Start again from the site if you still want to subscribe.</p>
${cancelUrl ? `<p><a href="${escapeHtml(cancelUrl)}">Back</a></p>` : ''}`,
  );
}

export interface PortalOption {
  price: Price;
  productName: string;
}

/** The customer portal: the subscription, its changes, the card on file. */
export function portalPage(input: {
  actionUrl: string;
  returnUrl: string | null;
  subscription: Subscription | undefined;
  productName: string | undefined;
  card: PaymentMethod | undefined;
  options: PortalOption[];
  notice?: string;
  confirmCancel?: boolean;
  cardState: CardFieldsState;
}): string {
  const sub = input.subscription;
  const item = sub?.items.data[0];
  const back = input.returnUrl
    ? `<a class="back" href="${escapeHtml(input.returnUrl)}">← Return to ${BUSINESS_NAME}</a>`
    : '';
  const notice = input.notice ? `<p class="notice" role="status">${escapeHtml(input.notice)}</p>` : '';
  let current = '<p>No active subscription.</p>';
  let actions = '';
  if (sub && item) {
    const state =
      sub.status === 'past_due'
        ? 'Payment failed. Update your card to keep your subscription.'
        : sub.cancel_at_period_end
          ? `Cancels on ${formatDay(item.current_period_end)}`
          : `Renews on ${formatDay(item.current_period_end)}`;
    current = `<dl><dt>Plan</dt><dd>${escapeHtml(input.productName ?? 'Subscription')}</dd>
<dt>Price</dt><dd>${escapeHtml(formatPrice(item.price))}</dd>
<dt>Status</dt><dd>${escapeHtml(state)}</dd></dl>`;
    const choices = input.options
      .map(
        ({ price, productName }) =>
          `<option value="${escapeHtml(price.id)}"${price.id === item.price.id ? ' selected' : ''}>${escapeHtml(`${productName} · ${formatPrice(price)}`)}</option>`,
      )
      .join('');
    const switchForm = `<section aria-labelledby="switch-heading"><h2 id="switch-heading">Update subscription</h2>
<form method="post" action="${escapeHtml(input.actionUrl)}"><input type="hidden" name="action" value="switch">
<label for="price">Plan</label><select id="price" name="price">${choices}</select>
<button type="submit">Update subscription</button></form></section>`;
    const cancelForm = sub.cancel_at_period_end
      ? `<section aria-labelledby="renew-heading"><h2 id="renew-heading">Cancellation</h2>
<p class="muted">Your subscription ends on ${escapeHtml(formatDay(item.current_period_end))}.</p>
<form method="post" action="${escapeHtml(input.actionUrl)}"><input type="hidden" name="action" value="resume">
<button type="submit">Renew subscription</button></form></section>`
      : input.confirmCancel
        ? `<section aria-labelledby="cancel-heading" role="alertdialog" aria-describedby="cancel-text"><h2 id="cancel-heading">Cancel subscription</h2>
<p id="cancel-text">Your subscription will be cancelled, but it stays available until the end of your billing period on ${escapeHtml(formatDay(item.current_period_end))}.</p>
<form method="post" action="${escapeHtml(input.actionUrl)}"><input type="hidden" name="action" value="cancel_confirm">
<button type="submit" class="danger">Cancel subscription</button></form>
<form method="get" action="${escapeHtml(input.actionUrl)}"><button type="submit" class="secondary">Go back</button></form></section>`
        : `<section aria-labelledby="cancel-heading"><h2 id="cancel-heading">Cancel</h2>
<form method="post" action="${escapeHtml(input.actionUrl)}"><input type="hidden" name="action" value="cancel">
<button type="submit" class="secondary">Cancel subscription</button></form></section>`;
    actions = `${switchForm}${cancelForm}`;
  }
  const card = input.card
    ? `<p>${escapeHtml(`${input.card.card.brand[0]?.toUpperCase()}${input.card.card.brand.slice(1)}`)} •••• ${escapeHtml(input.card.card.last4)} <span class="muted">expires ${escapeHtml(String(input.card.card.exp_month).padStart(2, '0'))}/${escapeHtml(String(input.card.card.exp_year).slice(-2))}</span></p>`
    : '<p class="muted">No card on file.</p>';
  return page(
    `${BUSINESS_NAME} billing`,
    `${back}<h1>Billing</h1>${notice}
<section aria-labelledby="current-heading"><h2 id="current-heading">Current subscription</h2>${current}</section>
${actions}
<section aria-labelledby="card-heading"><h2 id="card-heading">Payment method</h2>${card}
<form method="post" action="${escapeHtml(input.actionUrl)}" novalidate><input type="hidden" name="action" value="update_card">
${cardFields(input.cardState)}
<button type="submit">Save card</button></form></section>`,
  );
}

/** A portal link that is no longer valid. */
export function expiredPortalPage(): string {
  return page(
    'Session expired',
    '<h1>This portal session has expired.</h1><p class="muted">Open billing again from your profile.</p>',
  );
}
