/**
 * The embedded Stripe's hosted pages: Checkout and the customer portal.
 * Server-rendered, no script: forms post back to the page; every value is
 * escaped.
 */
import {
  formatAmount,
  formatDay,
  formatPrice,
  type Invoice,
  type PaymentMethod,
  type Price,
  type Subscription,
} from './stripe-store';

/** The account's public business name when the site has not named itself. */
export const BUSINESS_NAME = 'Tunesmith';

const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const css = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f9fc}
main{max-width:460px;margin:0 auto;padding:32px 20px 48px;overflow-wrap:anywhere}
header{display:flex;align-items:center;gap:12px;margin-bottom:24px}
.brand{font-weight:700;font-size:18px}.test{font-size:12px;font-weight:600;color:#a04100;background:#ffe9c9;border-radius:4px;padding:2px 6px}
a{color:#4f46e5}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #a5a0ff;outline-offset:2px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 12px}.muted{color:#596170;margin:0}
.amount{font-size:32px;font-weight:700;margin:8px 0 0}
section{background:#fff;border:1px solid #e3e8ee;border-radius:8px;padding:20px;margin-top:20px}
label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
input,select{width:100%;font:inherit;padding:10px 12px;border:1px solid #cfd7df;border-radius:6px;background:#fff}
input[aria-invalid=true]{border-color:#df1b41}
.row{display:flex;gap:12px;align-items:flex-end}.row>div{flex:1}
button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:12px 16px;margin-top:18px;width:100%;cursor:pointer;background:#4f46e5;color:#fff}
button.secondary{background:#fff;color:#1a1f36;border:1px solid #cfd7df}button.danger{background:#df1b41}
.alert{color:#df1b41;font-weight:600;margin:14px 0 0}.notice{background:#e5f6ea;color:#0d6c36;border-radius:6px;padding:10px 12px;font-weight:600}
dl{margin:0}dt{color:#596170;font-size:14px}dd{margin:0 0 10px;font-weight:600}
.back{display:inline-block;margin-bottom:16px}
table{width:100%;border-collapse:collapse;font-size:14px}th{text-align:left;color:#596170;font-weight:600}th,td{padding:6px 4px;border-bottom:1px solid #e3e8ee}
`;

/**
 * The expiry field as it is typed: "1234" becomes "12 / 34", a first digit
 * above 1 is a month ("4" becomes "04 / "), and while deleting the separator
 * is not put back. Self-contained: its source runs in the Checkout and portal
 * pages (under the page's script nonce), so keep it free of outside names.
 */
export function formatExpiryInput(value: string, deleting: boolean): string {
  let digits = value.replace(/\D/g, '').slice(0, 4);
  if (!deleting && digits.length === 1 && digits > '1') digits = `0${digits}`;
  if (digits.length > 2) return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
  if (digits.length === 2 && !deleting) return `${digits} / `;
  return digits;
}

const expiryScript = `(() => {
const format = ${formatExpiryInput.toString()};
const field = document.getElementById('card_expiry');
if (field) field.addEventListener('input', (event) => {
  field.value = format(field.value, String(event.inputType || '').startsWith('delete'));
});
})();`;

/** What every hosted page needs besides its body: the business name, and the nonce its script runs under. */
export interface PageContext {
  businessName: string;
  nonce: string;
}

function page(context: PageContext, title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${css}</style></head>
<body><main>
<header><span class="brand">${escapeHtml(context.businessName)}</span><span class="test">Test mode</span></header>
${body}
</main>${script ? `<script nonce="${escapeHtml(context.nonce)}">${script}</script>` : ''}</body></html>`;
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
export function checkoutPage(
  context: PageContext,
  input: {
    actionUrl: string;
    cancelUrl: string | null;
    productName: string;
    price: Price;
    quantity: number;
    email: string | null;
    card: CardFieldsState;
  },
): string {
  const { price } = input;
  const back = input.cancelUrl ? `<a class="back" href="${escapeHtml(input.cancelUrl)}">← Back</a>` : '';
  return page(
    context,
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
    expiryScript,
  );
}

/** A Checkout session that can no longer be paid: it expired (nothing was charged) or it was paid already. */
export function closedCheckoutPage(
  context: PageContext,
  session: { status: 'open' | 'complete' | 'expired'; cancelUrl: string | null } | null,
): string {
  const back = session?.cancelUrl
    ? `<p><a href="${escapeHtml(session.cancelUrl)}">Back to ${escapeHtml(context.businessName)}</a></p>`
    : '';
  if (session?.status === 'complete') {
    return page(
      context,
      'Checkout complete',
      `<h1>This checkout is already paid.</h1>
<p class="muted">Your subscription has started; nothing more is charged here.</p>
${back}`,
    );
  }
  if (session?.status === 'expired') {
    return page(
      context,
      'Checkout expired',
      `<h1>This checkout has expired.</h1>
<p class="muted">Nothing was charged. A newer checkout was started, or this one was left too long. Start again from the site if you still want to subscribe.</p>
${back}`,
    );
  }
  return page(
    context,
    'Checkout unavailable',
    `<h1>This checkout session does not exist.</h1>
<p class="muted">Nothing was charged. Start again from the site if you want to subscribe.</p>`,
  );
}

export interface PortalOption {
  price: Price;
  productName: string;
}

/** The customer portal: the subscription, its changes, the card on file. */
export function portalPage(
  context: PageContext,
  input: {
    actionUrl: string;
    returnUrl: string | null;
    subscription: Subscription | undefined;
    productName: string | undefined;
    card: PaymentMethod | undefined;
    options: PortalOption[];
    /** The customer's invoices, newest first (Stripe's invoice history). */
    invoices: Invoice[];
    notice?: string;
    confirmCancel?: boolean;
    cardState: CardFieldsState;
  },
): string {
  const sub = input.subscription;
  const item = sub?.items.data[0];
  const back = input.returnUrl
    ? `<a class="back" href="${escapeHtml(input.returnUrl)}">← Return to ${escapeHtml(context.businessName)}</a>`
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
  const invoiceStatus = { draft: 'Draft', open: 'Open', paid: 'Paid', void: 'Void' } as const;
  const invoices = input.invoices.length
    ? `<table><thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th></tr></thead><tbody>${input.invoices
        .map(
          (invoice) =>
            `<tr><td>${escapeHtml(formatDay(invoice.created))}</td><td>${escapeHtml(formatAmount(invoice.total, invoice.currency))}</td><td>${escapeHtml(invoiceStatus[invoice.status])}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No invoices yet.</p>';
  const card = input.card
    ? `<p>${escapeHtml(`${input.card.card.brand[0]?.toUpperCase()}${input.card.card.brand.slice(1)}`)} •••• ${escapeHtml(input.card.card.last4)} <span class="muted">expires ${escapeHtml(String(input.card.card.exp_month).padStart(2, '0'))}/${escapeHtml(String(input.card.card.exp_year).slice(-2))}</span></p>`
    : '<p class="muted">No card on file.</p>';
  return page(
    context,
    `${context.businessName} billing`,
    `${back}<h1>Billing</h1>${notice}
<section aria-labelledby="current-heading"><h2 id="current-heading">Current subscription</h2>${current}</section>
${actions}
<section aria-labelledby="card-heading"><h2 id="card-heading">Payment method</h2>${card}
<form method="post" action="${escapeHtml(input.actionUrl)}" novalidate><input type="hidden" name="action" value="update_card">
${cardFields(input.cardState)}
<button type="submit">Save card</button></form></section>
<section aria-labelledby="invoices-heading"><h2 id="invoices-heading">Invoice history</h2>${invoices}</section>`,
    expiryScript,
  );
}

/** The portal's confirm step for one subscription change (a `subscription_update_confirm` flow). */
export function portalConfirmPage(
  context: PageContext,
  input: {
    actionUrl: string;
    /** Where "Go back" leads: the flow's return address. */
    backUrl: string | null;
    current: { productName: string; price: Price };
    next: { productName: string; price: Price };
    /** What is charged now for the rest of the period (prorated), in cents. */
    dueNow: number;
    renewsOn: number;
    error?: string;
  },
): string {
  const back = input.backUrl
    ? `<a class="back" href="${escapeHtml(input.backUrl)}">← Return to ${escapeHtml(context.businessName)}</a>`
    : '';
  const alert = input.error ? `<p class="alert" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    context,
    'Confirm your new plan',
    `${back}<h1>Confirm your new plan</h1>${alert}
<section aria-labelledby="change-heading"><h2 id="change-heading">Change</h2>
<dl><dt>Current plan</dt><dd>${escapeHtml(`${input.current.productName} · ${formatPrice(input.current.price)}`)}</dd>
<dt>New plan</dt><dd>${escapeHtml(`${input.next.productName} · ${formatPrice(input.next.price)}`)}</dd>
<dt>Due today</dt><dd>${escapeHtml(formatAmount(input.dueNow, input.next.price.currency))}</dd>
<dt>Then</dt><dd>${escapeHtml(`${formatPrice(input.next.price)}, from ${formatDay(input.renewsOn)}`)}</dd></dl>
<form method="post" action="${escapeHtml(input.actionUrl)}"><input type="hidden" name="action" value="confirm_update">
<button type="submit">Confirm</button></form>
${input.backUrl ? `<p><a href="${escapeHtml(input.backUrl)}">Go back without changing</a></p>` : ''}
</section>`,
  );
}

/** A portal link that is no longer valid. */
export function expiredPortalPage(context: PageContext): string {
  return page(
    context,
    'Session expired',
    '<h1>This portal session has expired.</h1><p class="muted">Open billing again from your profile.</p>',
  );
}
