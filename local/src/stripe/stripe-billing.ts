/**
 * What the embedded Stripe does with its objects: customers, the catalogue,
 * Checkout, subscriptions and their invoices and payments, the portal's
 * changes, and the test clock. Every change records the events Stripe would
 * send, in its order; delivering them is the server's job.
 */
import {
  API_VERSION,
  addInterval,
  type BillingReason,
  type Charge,
  type CheckoutSession,
  type Customer,
  formatAmount,
  type Interval,
  type Invoice,
  type InvoicePayment,
  type Metadata,
  newId,
  type PaymentIntent,
  type PaymentMethod,
  type PortalConfiguration,
  type PortalFlow,
  type PortalSession,
  type Price,
  type Product,
  type Refund,
  type Store,
  type StripeEvent,
  type Subscription,
  type SubscriptionItem,
} from './stripe-store';
import { type Card, cardMessages } from './test-cards';

/** An answer in Stripe's error format: `{ error: { type, code, message, param } }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; message: string; code?: string; param?: string; decline_code?: string },
  ) {
    super(error.message);
    this.name = 'StripeApiError';
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });

export const missingParam = (param: string) =>
  invalid(`Missing required param: ${param}.`, param, 'parameter_missing');

/** 404 `resource_missing`, as Stripe answers an unknown id. */
export const noSuch = (resource: string, id: string, param = 'id') =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${resource}: '${id}'`,
    param,
  });

/** Delinquent subscriptions are cancelled once their payments have failed this long (Stripe's default retry window). */
const RETRY_WINDOW_SECONDS = 14 * 86_400;
/** Stripe retries a failed invoice a few days later. */
const RETRY_AFTER_SECONDS = 3 * 86_400;
const CHECKOUT_LIFETIME_SECONDS = 24 * 3600;
const PORTAL_LIFETIME_SECONDS = 3600;
const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];

export interface AdvanceResult {
  now: string;
  renewed: string[];
  failed: string[];
  recovered: string[];
  ended: string[];
}

/** A copy, so a stored event keeps the object as it was then. */
const snapshot = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function metadataOf(value: unknown): Metadata {
  if (!value || typeof value !== 'object') return {};
  const out: Metadata = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (typeof entry === 'string' && entry !== '') out[key] = entry;
  }
  return out;
}

function bool(value: unknown, param: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === true) return true;
  if (value === 'false' || value === false) return false;
  throw invalid(`Invalid boolean: ${String(value)}`, param);
}

function integer(value: unknown, param: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw invalid(`Invalid integer: ${String(value)}`, param);
  return number;
}

/**
 * The ledger over a store. `baseUrl` is where the hosted pages are served;
 * `onEvent` hears each event as it is recorded.
 */
export function createLedger(
  store: Store,
  options: { baseUrl: () => string; onEvent: (event: StripeEvent) => void },
) {
  const { state } = store;
  let requestContext: { id: string | null; idempotencyKey: string | null } = {
    id: null,
    idempotencyKey: null,
  };

  const emit = (type: string, object: unknown, previous?: Record<string, unknown>) => {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: store.now(),
      data: { object: snapshot(object), ...(previous ? { previous_attributes: snapshot(previous) } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: requestContext.id, idempotency_key: requestContext.idempotencyKey },
      type,
    };
    state.events.push(event);
    options.onEvent(event);
  };

  // ---- lookups -------------------------------------------------------------

  const customer = (id: unknown, param = 'id'): Customer => {
    const found = typeof id === 'string' ? state.customers[id] : undefined;
    if (!found) throw noSuch('customer', String(id), param);
    return found;
  };
  const product = (id: unknown, param = 'id'): Product => {
    const found = typeof id === 'string' ? state.products[id] : undefined;
    if (!found) throw noSuch('product', String(id), param);
    return found;
  };
  const price = (id: unknown, param = 'id'): Price => {
    const found = typeof id === 'string' ? state.prices[id] : undefined;
    if (!found) throw noSuch('price', String(id), param);
    return found;
  };
  const subscription = (id: unknown, param = 'id'): Subscription => {
    const found = typeof id === 'string' ? state.subscriptions[id] : undefined;
    if (!found) throw noSuch('subscription', String(id), param);
    return found;
  };
  const invoice = (id: unknown): Invoice => {
    const found = typeof id === 'string' ? state.invoices[id] : undefined;
    if (!found) throw noSuch('invoice', String(id));
    return found;
  };

  // ---- customers and catalogue ---------------------------------------------

  function createCustomer(params: Record<string, unknown>): Customer {
    const created: Customer = {
      id: newId('cus', 14),
      object: 'customer',
      created: store.now(),
      email: str(params.email) ?? null,
      name: str(params.name) ?? null,
      metadata: metadataOf(params.metadata),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      address: null,
      balance: 0,
      currency: null,
      default_source: null,
      delinquent: false,
      description: str(params.description) ?? null,
      invoice_prefix: newId('', 8).slice(1).toUpperCase(),
      livemode: false,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    state.customers[created.id] = created;
    emit('customer.created', created);
    return created;
  }

  function updateCustomer(id: string, params: Record<string, unknown>): Customer {
    const found = customer(id);
    const previous: Record<string, unknown> = {};
    for (const field of ['email', 'name', 'description'] as const) {
      const value = str(params[field]);
      if (value !== undefined) {
        previous[field] = found[field];
        found[field] = value;
      }
    }
    if (params.metadata !== undefined) {
      previous.metadata = found.metadata;
      found.metadata = { ...found.metadata, ...metadataOf(params.metadata) };
    }
    const settings = params.invoice_settings as Record<string, unknown> | undefined;
    const method = str(settings?.default_payment_method);
    if (method !== undefined) {
      if (!state.paymentMethods[method])
        throw noSuch('PaymentMethod', method, 'invoice_settings[default_payment_method]');
      previous.invoice_settings = { ...found.invoice_settings };
      found.invoice_settings.default_payment_method = method;
    }
    emit('customer.updated', found, previous);
    return found;
  }

  function createProduct(params: Record<string, unknown>): Product {
    const name = str(params.name);
    if (!name) throw missingParam('name');
    const id = str(params.id) ?? newId('prod', 14);
    if (state.products[id]) throw invalid(`Product already exists.`, 'id', 'resource_already_exists');
    const now = store.now();
    const created: Product = {
      id,
      object: 'product',
      active: bool(params.active, 'active') ?? true,
      created: now,
      updated: now,
      default_price: null,
      description: str(params.description) ?? null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata: metadataOf(params.metadata),
      name,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      type: 'service',
      unit_label: null,
      url: null,
    };
    state.products[id] = created;
    emit('product.created', created);
    return created;
  }

  function updateProduct(id: string, params: Record<string, unknown>): Product {
    const found = product(id);
    const previous: Record<string, unknown> = {};
    const active = bool(params.active, 'active');
    if (active !== undefined) {
      previous.active = found.active;
      found.active = active;
    }
    for (const field of ['name', 'description'] as const) {
      const value = str(params[field]);
      if (value !== undefined) {
        previous[field] = found[field];
        found[field] = value;
      }
    }
    if (params.metadata !== undefined) found.metadata = { ...found.metadata, ...metadataOf(params.metadata) };
    found.updated = store.now();
    emit('product.updated', found, previous);
    return found;
  }

  function createPrice(params: Record<string, unknown>): Price {
    const productId = str(params.product);
    if (!productId) throw missingParam('product');
    product(productId, 'product');
    const amount = integer(params.unit_amount, 'unit_amount');
    if (amount === undefined) throw missingParam('unit_amount');
    const currency = str(params.currency)?.toLowerCase();
    if (!currency) throw missingParam('currency');
    const recurring = params.recurring as Record<string, unknown> | undefined;
    const interval = str(recurring?.interval) as Interval | undefined;
    if (recurring && !INTERVALS.includes(interval as Interval)) {
      throw invalid(
        `Invalid recurring[interval]: must be one of day, week, month, or year`,
        'recurring[interval]',
      );
    }
    const lookupKey = str(params.lookup_key) ?? null;
    if (lookupKey) {
      const holder = Object.values(state.prices).find((p) => p.lookup_key === lookupKey);
      if (holder) {
        if (bool(params.transfer_lookup_key, 'transfer_lookup_key') !== true) {
          throw invalid(
            `A price (\`${holder.id}\`) already uses that lookup key.`,
            'lookup_key',
            'lookup_key_already_exists',
          );
        }
        holder.lookup_key = null;
      }
    }
    const created: Price = {
      id: newId('price'),
      object: 'price',
      active: bool(params.active, 'active') ?? true,
      billing_scheme: 'per_unit',
      created: store.now(),
      currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: lookupKey,
      metadata: metadataOf(params.metadata),
      nickname: str(params.nickname) ?? null,
      product: productId,
      recurring: interval
        ? {
            interval,
            interval_count: integer(recurring?.interval_count, 'recurring[interval_count]') ?? 1,
            meter: null,
            trial_period_days: null,
            usage_type: 'licensed',
          }
        : null,
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: interval ? 'recurring' : 'one_time',
      unit_amount: amount,
      unit_amount_decimal: String(amount),
    };
    state.prices[created.id] = created;
    emit('price.created', created);
    return created;
  }

  function updatePrice(id: string, params: Record<string, unknown>): Price {
    const found = price(id);
    const previous: Record<string, unknown> = {};
    const active = bool(params.active, 'active');
    if (active !== undefined) {
      previous.active = found.active;
      found.active = active;
    }
    if (params.nickname !== undefined) found.nickname = str(params.nickname) || null;
    if (params.lookup_key !== undefined) found.lookup_key = str(params.lookup_key) || null;
    if (params.metadata !== undefined) found.metadata = { ...found.metadata, ...metadataOf(params.metadata) };
    emit('price.updated', found, previous);
    return found;
  }

  // ---- payments ------------------------------------------------------------

  /** Saves a checked card for the customer. */
  function attachCard(owner: Customer, card: Card): PaymentMethod {
    const method: PaymentMethod = {
      id: newId('pm'),
      object: 'payment_method',
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: card.brand,
        country: 'US',
        exp_month: card.expMonth,
        exp_year: card.expYear,
        funding: 'credit',
        last4: card.last4,
      },
      created: store.now(),
      customer: owner.id,
      livemode: false,
      metadata: {},
      type: 'card',
    };
    state.paymentMethods[method.id] = method;
    state.hidden.cards[method.id] = card.behaviour;
    emit('payment_method.attached', method);
    const previous = { invoice_settings: { ...owner.invoice_settings } };
    owner.invoice_settings.default_payment_method = method.id;
    emit('customer.updated', owner, previous);
    return method;
  }

  /** Charges a saved card; the payment intent says how it went. */
  function charge(owner: string, method: string | null, amount: number, description: string): PaymentIntent {
    const pays = method ? state.hidden.cards[method] === 'pays' : false;
    const intent: PaymentIntent = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: pays ? amount : 0,
      created: store.now(),
      currency: 'usd',
      customer: owner,
      description,
      last_payment_error: pays
        ? null
        : {
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: cardMessages.declined,
            type: 'card_error',
          },
      livemode: false,
      metadata: {},
      payment_method: method,
      latest_charge: null,
      status: pays ? 'succeeded' : 'requires_payment_method',
    };
    const made: Charge = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_captured: pays ? amount : 0,
      amount_refunded: 0,
      balance_transaction: null,
      billing_details: { address: null, email: null, name: null, phone: null },
      captured: pays,
      created: intent.created,
      currency: 'usd',
      customer: owner,
      description,
      disputed: false,
      failure_code: pays ? null : 'card_declined',
      failure_message: pays ? null : cardMessages.declined,
      livemode: false,
      metadata: {},
      outcome: pays
        ? {
            network_status: 'approved_by_network',
            reason: null,
            seller_message: 'Payment complete.',
            type: 'authorized',
          }
        : {
            network_status: 'declined_by_network',
            reason: 'generic_decline',
            seller_message: 'The bank did not return any further details with this decline.',
            type: 'issuer_declined',
          },
      paid: pays,
      payment_intent: intent.id,
      payment_method: method,
      receipt_email: state.customers[owner]?.email ?? null,
      refunded: false,
      status: pays ? 'succeeded' : 'failed',
    };
    intent.latest_charge = made.id;
    state.charges[made.id] = made;
    state.paymentIntents[intent.id] = intent;
    emit(pays ? 'charge.succeeded' : 'charge.failed', made);
    return intent;
  }

  const legacyPlan = (p: Price) => ({
    id: p.id,
    object: 'plan',
    active: p.active,
    amount: p.unit_amount,
    amount_decimal: p.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.currency,
    interval: p.recurring?.interval ?? 'month',
    interval_count: p.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: p.metadata,
    meter: null,
    nickname: p.nickname,
    product: p.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  });

  const itemOf = (sub: Subscription): SubscriptionItem => sub.items.data[0] as SubscriptionItem;
  const periodEnd = (sub: Subscription) => itemOf(sub).current_period_end;
  const intervalOf = (p: Price): Interval => p.recurring?.interval ?? 'month';
  const nextPeriodEnd = (p: Price, from: number) =>
    addInterval(from, intervalOf(p), p.recurring?.interval_count ?? 1);

  /** An invoice for one period of a subscription, finalized (open), not yet paid. */
  function invoiceFor(
    sub: Subscription,
    amount: number,
    reason: BillingReason,
    period: { start: number; end: number },
  ): Invoice {
    const owner = state.customers[sub.customer];
    const item = itemOf(sub);
    const now = store.now();
    state.invoiceCounter += 1;
    const id = newId('in');
    const made: Invoice = {
      id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Tunesmith',
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      attempt_count: 0,
      attempted: false,
      auto_advance: true,
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: now,
      currency: 'usd',
      customer: sub.customer,
      customer_email: owner?.email ?? null,
      customer_name: owner?.name ?? null,
      default_payment_method: null,
      description: null,
      hosted_invoice_url: null,
      invoice_pdf: null,
      lines: {
        object: 'list',
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount,
            currency: 'usd',
            description: `1 × ${state.products[item.price.product]?.name ?? 'Subscription'} (at ${formatAmount(item.price.unit_amount)} / ${intervalOf(item.price)})`,
            livemode: false,
            metadata: {},
            parent: {
              subscription_item_details: {
                invoice_item: null,
                proration: reason === 'subscription_update',
                proration_details: { credited_items: null },
                subscription: sub.id,
                subscription_item: item.id,
              },
              type: 'subscription_item_details',
            },
            period: { start: period.start, end: period.end },
            pricing: {
              price_details: { price: item.price.id, product: item.price.product },
              type: 'price_details',
              unit_amount_decimal: item.price.unit_amount_decimal,
            },
            quantity: 1,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: now,
      number: `${owner?.invoice_prefix ?? 'INV'}-${String(state.invoiceCounter).padStart(4, '0')}`,
      parent: {
        quote_details: null,
        subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id },
        type: 'subscription_details',
      },
      period_end: period.end,
      period_start: period.start,
      status: 'open',
      status_transitions: {
        finalized_at: now,
        marked_uncollectible_at: null,
        paid_at: null,
        voided_at: null,
      },
      subtotal: amount,
      total: amount,
    };
    state.invoices[id] = made;
    sub.latest_invoice = id;
    return made;
  }

  /**
   * Tries to collect an open invoice with the subscription's card and records
   * the events. Returns whether it was paid; the subscription's status is
   * the caller's to set.
   */
  function collect(open: Invoice, sub: Subscription): boolean {
    const method =
      sub.default_payment_method ??
      state.customers[sub.customer]?.invoice_settings.default_payment_method ??
      null;
    const now = store.now();
    open.attempt_count += 1;
    open.attempted = true;
    if (open.amount_due === 0) {
      open.status = 'paid';
      open.status_transitions.paid_at = now;
      open.next_payment_attempt = null;
      emit('invoice.paid', open);
      emit('invoice.payment_succeeded', open);
      return true;
    }
    const intent = charge(
      sub.customer,
      method,
      open.amount_due,
      `Subscription ${open.billing_reason.replace('subscription_', '')}`,
    );
    if (intent.status === 'succeeded') {
      const payment: InvoicePayment = {
        id: newId('inpay'),
        object: 'invoice_payment',
        amount_paid: open.amount_due,
        amount_requested: open.amount_due,
        created: now,
        currency: open.currency,
        invoice: open.id,
        is_default: true,
        livemode: false,
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status: 'paid',
        status_transitions: { canceled_at: null, paid_at: now },
      };
      state.invoicePayments[payment.id] = payment;
      open.status = 'paid';
      open.amount_paid = open.amount_due;
      open.amount_remaining = 0;
      open.status_transitions.paid_at = now;
      open.next_payment_attempt = null;
      emit('invoice.paid', open);
      emit('invoice.payment_succeeded', open);
      emit('payment_intent.succeeded', intent);
      return true;
    }
    open.next_payment_attempt = now + RETRY_AFTER_SECONDS;
    emit('invoice.payment_failed', open);
    emit('payment_intent.payment_failed', intent);
    return false;
  }

  function setStatus(sub: Subscription, status: Subscription['status'], previous: Record<string, unknown>) {
    if (sub.status === status) return;
    previous.status ??= sub.status;
    sub.status = status;
    if (status === 'past_due') state.hidden.pastDueSince[sub.id] ??= store.now();
    else delete state.hidden.pastDueSince[sub.id];
  }

  const openInvoiceOf = (sub: Subscription): Invoice | undefined =>
    Object.values(state.invoices)
      .filter((inv) => inv.parent.subscription_details.subscription === sub.id && inv.status === 'open')
      .sort((a, b) => b.created - a.created)[0];

  // ---- Checkout ------------------------------------------------------------

  function createCheckoutSession(params: Record<string, unknown>): CheckoutSession {
    if (params.mode === undefined) throw missingParam('mode');
    if (params.mode !== 'subscription') {
      throw invalid('Only `mode=subscription` is available on this Stripe.', 'mode');
    }
    const owner = str(params.customer);
    if (!owner) throw invalid('A `customer` is required for subscriptions on this Stripe.', 'customer');
    customer(owner, 'customer');
    const successUrl = str(params.success_url);
    if (!successUrl) throw missingParam('success_url');
    const lines = params.line_items as Array<Record<string, unknown>> | undefined;
    const line = Array.isArray(lines) ? lines[0] : undefined;
    if (!line) throw missingParam('line_items');
    if (lines && lines.length > 1)
      throw invalid('Only one line item is available on this Stripe.', 'line_items');
    const chosen = price(line.price, 'line_items[0][price]');
    if (!chosen.active) throw invalid(`The price \`${chosen.id}\` is not active.`, 'line_items[0][price]');
    if (!chosen.recurring) {
      throw invalid(
        'You must provide at least one recurring price in `subscription` mode.',
        'line_items[0][price]',
      );
    }
    const quantity = integer(line.quantity, 'line_items[0][quantity]') ?? 1;
    const id = newId('cs_test', 58);
    const data = params.subscription_data as Record<string, unknown> | undefined;
    const now = store.now();
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: chosen.unit_amount * quantity,
      amount_total: chosen.unit_amount * quantity,
      cancel_url: str(params.cancel_url) ?? null,
      client_reference_id: str(params.client_reference_id) ?? null,
      created: now,
      currency: chosen.currency,
      customer: owner,
      customer_email: state.customers[owner]?.email ?? null,
      expires_at: now + CHECKOUT_LIFETIME_SECONDS,
      invoice: null,
      livemode: false,
      metadata: metadataOf(params.metadata),
      mode: 'subscription',
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      url: `${options.baseUrl()}/c/pay/${id}`,
    };
    state.checkoutSessions[id] = session;
    state.hidden.sessionLines[id] = {
      price: chosen.id,
      quantity,
      subscriptionMetadata: metadataOf(data?.metadata),
    };
    return session;
  }

  /** The session, expired first if its time has passed. */
  function checkoutSession(id: string): CheckoutSession {
    const session = state.checkoutSessions[id];
    if (!session) throw noSuch('checkout.session', id);
    if (session.status === 'open' && session.expires_at <= store.now()) {
      session.status = 'expired';
      session.url = null;
      emit('checkout.session.expired', session);
    }
    return session;
  }

  /** Pays a Checkout session with a checked card: the subscription starts. Throws a card error when declined. */
  function payCheckout(id: string, card: Card): CheckoutSession {
    const session = checkoutSession(id);
    if (session.status !== 'open')
      throw invalid('This Checkout Session is no longer active.', 'id', 'checkout_session_not_active');
    const line = state.hidden.sessionLines[id];
    if (!line) throw noSuch('checkout.session', id);
    const chosen = price(line.price);
    const owner = customer(session.customer);
    if (card.behaviour !== 'pays') {
      // The first charge is made at once, so a card that declines charges fails here.
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: cardMessages.declined,
      });
    }
    const method = attachCard(owner, card);
    const now = store.now();
    const subId = newId('sub');
    const item: SubscriptionItem = {
      id: newId('si', 14),
      object: 'subscription_item',
      billing_thresholds: null,
      created: now,
      current_period_end: nextPeriodEnd(chosen, now),
      current_period_start: now,
      discounts: [],
      metadata: {},
      plan: legacyPlan(chosen),
      price: snapshot(chosen),
      quantity: line.quantity,
      subscription: subId,
      tax_rates: [],
    };
    const sub: Subscription = {
      id: subId,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: now,
      billing_cycle_anchor_config: null,
      billing_mode: { type: 'classic' },
      billing_thresholds: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: now,
      currency: chosen.currency,
      customer: owner.id,
      days_until_due: null,
      default_payment_method: method.id,
      default_source: null,
      description: null,
      discounts: [],
      ended_at: null,
      invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
      items: {
        object: 'list',
        data: [item],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: line.subscriptionMetadata,
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: {
        payment_method_options: null,
        payment_method_types: null,
        save_default_payment_method: 'off',
      },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: now,
      status: 'active',
      test_clock: null,
      transfer_data: null,
      trial_end: null,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: null,
    };
    state.subscriptions[subId] = sub;
    const first = invoiceFor(sub, chosen.unit_amount * line.quantity, 'subscription_create', {
      start: now,
      end: item.current_period_end,
    });
    emit('customer.subscription.created', sub);
    collect(first, sub);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.subscription = subId;
    session.invoice = first.id;
    session.url = null;
    emit('checkout.session.completed', session);
    return session;
  }

  // ---- subscriptions -------------------------------------------------------

  /**
   * What moving `sub` to `next` now costs: the new price for the rest of the
   * period (or a whole new period when the interval changes), less what is
   * left of the old one; and the period it pays for.
   */
  function changeTerms(sub: Subscription, next: Price) {
    const item = itemOf(sub);
    const old = item.price;
    const now = store.now();
    const { current_period_start: start, current_period_end: end } = item;
    const unused = end > now && end > start ? (end - now) / (end - start) : 0;
    const credit = Math.round(old.unit_amount * item.quantity * unused);
    const newPeriod =
      intervalOf(old) !== intervalOf(next) ||
      (old.recurring?.interval_count ?? 1) !== (next.recurring?.interval_count ?? 1);
    if (newPeriod) {
      const period = { start: now, end: nextPeriodEnd(next, now) };
      return { amount: Math.max(0, next.unit_amount * item.quantity - credit), period, newPeriod };
    }
    const amount = Math.max(0, Math.round(next.unit_amount * item.quantity * unused) - credit);
    return { amount, period: { start: now, end }, newPeriod };
  }

  /** Moves the subscription to `next` (the portal's switch, or the API's item price): see the module notes on proration. */
  function changePrice(sub: Subscription, next: Price, previous: Record<string, unknown>): void {
    if (sub.status === 'canceled')
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
        'items',
      );
    if (!next.active || !next.recurring)
      throw invalid(`The price \`${next.id}\` is not an active recurring price.`, 'items[0][price]');
    const item = itemOf(sub);
    const old = item.price;
    if (old.id === next.id) return;
    const { amount, period, newPeriod } = changeTerms(sub, next);
    previous.items = snapshot(sub.items);
    previous.plan = legacyPlan(old);
    item.price = snapshot(next);
    item.plan = legacyPlan(next);
    if (newPeriod) {
      // A new interval starts a new period now, billed at once, less what is left of the old one.
      item.current_period_start = period.start;
      item.current_period_end = period.end;
      sub.billing_cycle_anchor = period.start;
    }
    if (sub.cancel_at_period_end && sub.cancel_at !== null) sub.cancel_at = item.current_period_end;
    if (amount > 0) {
      const bill = invoiceFor(sub, amount, 'subscription_update', period);
      deferred.push(() => {
        const paid = collect(bill, sub);
        const statusChange: Record<string, unknown> = {};
        setStatus(sub, paid ? 'active' : 'past_due', statusChange);
        if (Object.keys(statusChange).length) emit('customer.subscription.updated', sub, statusChange);
      });
    }
  }

  /** Work that must follow the subscription's own update event (invoices raised by a change). */
  let deferred: Array<() => void> = [];
  const runDeferred = () => {
    const work = deferred;
    deferred = [];
    for (const step of work) step();
  };

  function setCancelAtPeriodEnd(sub: Subscription, cancel: boolean, previous: Record<string, unknown>): void {
    if (sub.status === 'canceled')
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
        'cancel_at_period_end',
      );
    if (sub.cancel_at_period_end === cancel) return;
    previous.cancel_at_period_end = sub.cancel_at_period_end;
    previous.cancel_at = sub.cancel_at;
    previous.canceled_at = sub.canceled_at;
    previous.cancellation_details = { ...sub.cancellation_details };
    sub.cancel_at_period_end = cancel;
    sub.cancel_at = cancel ? periodEnd(sub) : null;
    sub.canceled_at = cancel ? store.now() : null;
    sub.cancellation_details = {
      comment: null,
      feedback: null,
      reason: cancel ? 'cancellation_requested' : null,
    };
  }

  function updateSubscription(id: string, params: Record<string, unknown>): Subscription {
    const sub = subscription(id);
    const previous: Record<string, unknown> = {};
    const items = params.items as Array<Record<string, unknown>> | undefined;
    if (items !== undefined) {
      const entry = Array.isArray(items) ? items[0] : undefined;
      if (!entry) throw invalid('Invalid array', 'items');
      if (entry.id !== undefined && entry.id !== itemOf(sub).id)
        throw noSuch('subscription_item', String(entry.id), 'items[0][id]');
      if (entry.price !== undefined) changePrice(sub, price(entry.price, 'items[0][price]'), previous);
    }
    const cancel = bool(params.cancel_at_period_end, 'cancel_at_period_end');
    if (cancel !== undefined) setCancelAtPeriodEnd(sub, cancel, previous);
    const method = str(params.default_payment_method);
    if (method !== undefined) {
      if (!state.paymentMethods[method]) throw noSuch('PaymentMethod', method, 'default_payment_method');
      previous.default_payment_method = sub.default_payment_method;
      sub.default_payment_method = method;
    }
    if (params.metadata !== undefined) {
      previous.metadata = { ...sub.metadata };
      sub.metadata = { ...sub.metadata, ...metadataOf(params.metadata) };
    }
    if (Object.keys(previous).length) emit('customer.subscription.updated', sub, previous);
    runDeferred();
    return sub;
  }

  /** Ends the subscription now (`at`: when it ended; the period end for a scheduled cancel). */
  function endSubscription(
    sub: Subscription,
    at: number,
    reason: Subscription['cancellation_details']['reason'],
  ): void {
    if (sub.status === 'canceled') return;
    sub.status = 'canceled';
    sub.ended_at = at;
    sub.canceled_at ??= at;
    sub.cancellation_details = {
      comment: null,
      feedback: null,
      reason: sub.cancellation_details.reason ?? reason,
    };
    delete state.hidden.pastDueSince[sub.id];
    for (const open of Object.values(state.invoices)) {
      if (open.parent.subscription_details.subscription === sub.id && open.status === 'open') {
        open.status = 'void';
        open.status_transitions.voided_at = at;
        open.next_payment_attempt = null;
      }
    }
    emit('customer.subscription.deleted', sub);
  }

  function cancelSubscription(id: string): Subscription {
    const sub = subscription(id);
    if (sub.status === 'canceled') {
      throw invalid(`A canceled subscription can only update its cancellation_details and metadata.`, 'id');
    }
    endSubscription(sub, store.now(), 'cancellation_requested');
    return sub;
  }

  /** A past-due subscription's open invoice, paid with the card now on file. */
  function retry(sub: Subscription): boolean {
    const open = openInvoiceOf(sub);
    if (!open) return false;
    const paid = collect(open, sub);
    const previous: Record<string, unknown> = {};
    setStatus(sub, paid ? 'active' : 'past_due', previous);
    if (Object.keys(previous).length) emit('customer.subscription.updated', sub, previous);
    return paid;
  }

  function payInvoice(id: string): Invoice {
    const open = invoice(id);
    if (open.status !== 'open') throw invalid('Invoice is already paid', 'id', 'invoice_not_open');
    const sub = subscription(open.parent.subscription_details.subscription);
    const paid = collect(open, sub);
    const previous: Record<string, unknown> = {};
    setStatus(sub, paid ? 'active' : 'past_due', previous);
    if (Object.keys(previous).length) emit('customer.subscription.updated', sub, previous);
    if (!paid) {
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: cardMessages.declined,
      });
    }
    return open;
  }

  /** Expires an open Checkout session at once: it can no longer be paid. */
  function expireCheckoutSession(id: string): CheckoutSession {
    const session = checkoutSession(id);
    if (session.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`,
      );
    }
    session.status = 'expired';
    session.url = null;
    emit('checkout.session.expired', session);
    return session;
  }

  // ---- refunds -------------------------------------------------------------

  const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

  /** Refunds a payment (by payment intent or charge), by default whatever of it is not refunded yet. */
  function createRefund(params: Record<string, unknown>): Refund {
    const intentId = str(params.payment_intent);
    const chargeId = str(params.charge);
    if (!intentId && !chargeId) throw missingParam('charge');
    let paid: Charge | undefined;
    if (chargeId) {
      paid = state.charges[chargeId];
      if (!paid) throw noSuch('charge', chargeId, 'charge');
    } else {
      const intent = state.paymentIntents[intentId as string];
      if (!intent) throw noSuch('payment_intent', intentId as string, 'payment_intent');
      paid = intent.latest_charge ? state.charges[intent.latest_charge] : undefined;
      if (!paid || intent.status !== 'succeeded') {
        throw invalid(
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'payment_intent',
          'charge_not_refundable',
        );
      }
    }
    const left = paid.amount_captured - paid.amount_refunded;
    if (left <= 0) {
      throw invalid(`Charge ${paid.id} has already been refunded.`, undefined, 'charge_already_refunded');
    }
    const amount = integer(params.amount, 'amount') ?? left;
    if (amount < 1 || amount > left) {
      throw invalid(
        `Refund amount (${formatAmount(amount)}) is greater than unrefunded amount on charge (${formatAmount(left)})`,
        'amount',
        'amount_too_large',
      );
    }
    const reason = str(params.reason);
    if (reason !== undefined && !(REFUND_REASONS as readonly string[]).includes(reason)) {
      throw invalid(`Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`, 'reason');
    }
    const refund: Refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: paid.id,
      created: store.now(),
      currency: paid.currency,
      metadata: metadataOf(params.metadata),
      payment_intent: paid.payment_intent,
      reason: (reason as Refund['reason']) ?? null,
      receipt_number: null,
      status: 'succeeded',
    };
    state.refunds[refund.id] = refund;
    const previous = { amount_refunded: paid.amount_refunded, refunded: paid.refunded };
    paid.amount_refunded += amount;
    paid.refunded = paid.amount_refunded >= paid.amount_captured;
    emit('refund.created', refund);
    emit('charge.refunded', paid, previous);
    return refund;
  }

  // ---- the portal ----------------------------------------------------------

  /** The configuration sessions use when they name none: every active recurring price may be chosen. */
  const DEFAULT_CONFIGURATION = 'bpc_embedded_default';

  const configurationFeatures = (
    given: Record<string, unknown> | undefined,
    base?: PortalConfiguration['features'],
  ): PortalConfiguration['features'] => {
    const part = (name: string) => (given?.[name] as Record<string, unknown> | undefined) ?? undefined;
    const enabled = (value: Record<string, unknown> | undefined, fallback: boolean) =>
      value?.enabled === undefined ? fallback : (bool(value.enabled, 'features[enabled]') as boolean);
    const update = part('subscription_update');
    const cancel = part('subscription_cancel');
    let products = base?.subscription_update.products ?? [];
    if (update?.products !== undefined) {
      const listed = Array.isArray(update.products)
        ? (update.products as Array<Record<string, unknown>>)
        : [];
      products = listed.map((entry, index) => {
        const productId = str(entry.product);
        if (!productId) throw missingParam(`features[subscription_update][products][${index}][product]`);
        product(productId, `features[subscription_update][products][${index}][product]`);
        const prices = Array.isArray(entry.prices) ? (entry.prices as unknown[]).map(String) : [];
        if (prices.length === 0) {
          throw missingParam(`features[subscription_update][products][${index}][prices]`);
        }
        for (const priceId of prices) {
          const found = price(priceId, `features[subscription_update][products][${index}][prices]`);
          if (found.product !== productId || !found.active || !found.recurring) {
            throw invalid(
              `The price \`${priceId}\` must be an active recurring price of the product \`${productId}\`.`,
              `features[subscription_update][products][${index}][prices]`,
            );
          }
        }
        return {
          adjustable_quantity: { enabled: false, maximum: null, minimum: 1 },
          prices,
          product: productId,
        };
      });
    }
    const updateEnabled = enabled(update, base?.subscription_update.enabled ?? false);
    if (updateEnabled && products.length === 0) {
      throw invalid(
        'Must provide at least one product when `features[subscription_update][enabled]` is true.',
        'features[subscription_update][products]',
      );
    }
    const mode = str(cancel?.mode) ?? base?.subscription_cancel.mode ?? 'at_period_end';
    if (mode !== 'at_period_end' && mode !== 'immediately') {
      throw invalid('Invalid features[subscription_cancel][mode]', 'features[subscription_cancel][mode]');
    }
    const proration = (value: unknown, fallback: 'none' | 'create_prorations' | 'always_invoice') => {
      const chosen = str(value) ?? fallback;
      if (!['none', 'create_prorations', 'always_invoice'].includes(chosen)) {
        throw invalid(
          `Invalid proration_behavior: ${chosen}`,
          'features[subscription_update][proration_behavior]',
        );
      }
      return chosen as 'none' | 'create_prorations' | 'always_invoice';
    };
    return {
      customer_update: {
        allowed_updates: base?.customer_update.allowed_updates ?? [],
        enabled: enabled(part('customer_update'), base?.customer_update.enabled ?? false),
      },
      invoice_history: { enabled: enabled(part('invoice_history'), base?.invoice_history.enabled ?? true) },
      payment_method_update: {
        enabled: enabled(part('payment_method_update'), base?.payment_method_update.enabled ?? true),
        payment_method_configuration: null,
      },
      subscription_cancel: {
        cancellation_reason: { enabled: false, options: [] },
        enabled: enabled(cancel, base?.subscription_cancel.enabled ?? false),
        mode,
        proration_behavior: proration(
          cancel?.proration_behavior,
          base?.subscription_cancel.proration_behavior ?? 'none',
        ),
      },
      subscription_pause: { enabled: false },
      subscription_update: {
        billing_cycle_anchor: null,
        default_allowed_updates: Array.isArray(update?.default_allowed_updates)
          ? (update.default_allowed_updates as unknown[]).map(String)
          : (base?.subscription_update.default_allowed_updates ?? []),
        enabled: updateEnabled,
        products,
        proration_behavior: proration(
          update?.proration_behavior,
          base?.subscription_update.proration_behavior ?? 'create_prorations',
        ),
        schedule_at_period_end: { conditions: [] },
        trial_update_behavior: 'end_trial',
      },
    };
  };

  function createPortalConfiguration(params: Record<string, unknown>): PortalConfiguration {
    if (params.features === undefined) throw missingParam('features');
    const now = store.now();
    const profile = params.business_profile as Record<string, unknown> | undefined;
    const made: PortalConfiguration = {
      id: newId('bpc'),
      object: 'billing_portal.configuration',
      active: true,
      application: null,
      business_profile: {
        headline: str(profile?.headline) ?? null,
        privacy_policy_url: str(profile?.privacy_policy_url) ?? null,
        terms_of_service_url: str(profile?.terms_of_service_url) ?? null,
      },
      created: now,
      default_return_url: str(params.default_return_url) ?? null,
      features: configurationFeatures(params.features as Record<string, unknown>),
      is_default: false,
      livemode: false,
      login_page: { enabled: false, url: null },
      metadata: metadataOf(params.metadata),
      name: str(params.name) ?? null,
      updated: now,
    };
    state.portalConfigurations[made.id] = made;
    emit('billing_portal.configuration.created', made);
    return made;
  }

  function portalConfiguration(id: string): PortalConfiguration {
    const found = state.portalConfigurations[id];
    if (!found) throw noSuch('billing_portal.configuration', id);
    return found;
  }

  function updatePortalConfiguration(id: string, params: Record<string, unknown>): PortalConfiguration {
    const found = portalConfiguration(id);
    if (params.features !== undefined) {
      found.features = configurationFeatures(params.features as Record<string, unknown>, found.features);
    }
    const active = bool(params.active, 'active');
    if (active !== undefined) found.active = active;
    if (params.name !== undefined) found.name = str(params.name) || null;
    if (params.default_return_url !== undefined)
      found.default_return_url = str(params.default_return_url) || null;
    const profile = params.business_profile as Record<string, unknown> | undefined;
    if (profile?.headline !== undefined) found.business_profile.headline = str(profile.headline) || null;
    if (params.metadata !== undefined) found.metadata = { ...found.metadata, ...metadataOf(params.metadata) };
    found.updated = store.now();
    emit('billing_portal.configuration.updated', found);
    return found;
  }

  /** The portal's switch choices for a session: its configuration's prices, else every plan price. */
  /**
   * The invoices the portal lists for a customer (newest first, at most
   * `limit`), or none when the configuration turns invoice history off.
   */
  function portalInvoices(customerId: string, configurationId: string, limit = 24): Invoice[] {
    if (state.portalConfigurations[configurationId]?.features.invoice_history.enabled === false) return [];
    return Object.values(state.invoices)
      .filter((invoice) => invoice.customer === customerId && invoice.status !== 'draft')
      .sort((a, b) => b.created - a.created || b.id.localeCompare(a.id))
      .slice(0, limit);
  }

  function portalPrices(configurationId: string): Price[] {
    const configured = state.portalConfigurations[configurationId];
    if (configured) {
      if (!configured.features.subscription_update.enabled) return [];
      return configured.features.subscription_update.products.flatMap((entry) =>
        entry.prices.map((id) => state.prices[id]).filter((p): p is Price => !!p && p.active),
      );
    }
    return Object.values(state.prices).filter(
      (p) => p.active && p.recurring && state.products[p.product]?.active && p.metadata.planId,
    );
  }

  function flowOf(
    params: Record<string, unknown>,
    owner: string,
    configurationId: string,
    returnUrl: string | null,
  ): PortalFlow | null {
    const data = params.flow_data as Record<string, unknown> | undefined;
    if (data === undefined) return null;
    if (data.type !== 'subscription_update_confirm') {
      throw invalid(
        'Only `subscription_update_confirm` flows are available on this Stripe.',
        'flow_data[type]',
      );
    }
    const confirm = data.subscription_update_confirm as Record<string, unknown> | undefined;
    const subId = str(confirm?.subscription);
    if (!subId) throw missingParam('flow_data[subscription_update_confirm][subscription]');
    const sub = subscription(subId, 'flow_data[subscription_update_confirm][subscription]');
    if (sub.customer !== owner || sub.status === 'canceled') {
      throw invalid(
        `The subscription \`${subId}\` cannot be updated for this customer.`,
        'flow_data[subscription_update_confirm][subscription]',
      );
    }
    const items = Array.isArray(confirm?.items) ? (confirm.items as Array<Record<string, unknown>>) : [];
    const entry = items[0];
    if (!entry) throw missingParam('flow_data[subscription_update_confirm][items]');
    if (entry.id !== itemOf(sub).id) {
      throw noSuch(
        'subscription_item',
        String(entry.id),
        'flow_data[subscription_update_confirm][items][0][id]',
      );
    }
    const next = price(entry.price, 'flow_data[subscription_update_confirm][items][0][price]');
    if (!portalPrices(configurationId).some((p) => p.id === next.id)) {
      throw invalid(
        `The price \`${next.id}\` is not in the portal configuration's subscription_update products.`,
        'flow_data[subscription_update_confirm][items][0][price]',
      );
    }
    const after = data.after_completion as Record<string, unknown> | undefined;
    const redirectTo = str((after?.redirect as Record<string, unknown> | undefined)?.return_url);
    const afterType = after?.type === 'redirect' ? 'redirect' : 'portal_homepage';
    if (afterType === 'redirect' && !redirectTo) {
      throw missingParam('flow_data[after_completion][redirect][return_url]');
    }
    return {
      type: 'subscription_update_confirm',
      after_completion: {
        type: afterType,
        redirect: afterType === 'redirect' ? { return_url: redirectTo ?? returnUrl ?? '' } : null,
        hosted_confirmation: null,
      },
      subscription_cancel: null,
      subscription_update: null,
      subscription_update_confirm: {
        discounts: null,
        items: [{ id: itemOf(sub).id, price: next.id, quantity: integer(entry.quantity, 'quantity') ?? 1 }],
        subscription: sub.id,
      },
    };
  }

  function createPortalSession(params: Record<string, unknown>): PortalSession {
    const owner = str(params.customer);
    if (!owner) throw missingParam('customer');
    customer(owner, 'customer');
    const configurationId = str(params.configuration) ?? DEFAULT_CONFIGURATION;
    if (configurationId !== DEFAULT_CONFIGURATION) {
      const configured = portalConfiguration(configurationId);
      if (!configured.active)
        throw invalid(`The configuration \`${configurationId}\` is not active.`, 'configuration');
    }
    const returnUrl = str(params.return_url) ?? null;
    const id = newId('bps', 24);
    const session: PortalSession = {
      id,
      object: 'billing_portal.session',
      configuration: configurationId,
      created: store.now(),
      customer: owner,
      flow: flowOf(params, owner, configurationId, returnUrl),
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: returnUrl,
      url: `${options.baseUrl()}/p/session/${id}`,
    };
    state.portalSessions[id] = session;
    state.hidden.portalExpiry[id] = Math.floor(Date.now() / 1000) + PORTAL_LIFETIME_SECONDS;
    return session;
  }

  /** A portal session that is still valid (an hour of real time). */
  function portalSession(id: string): PortalSession | undefined {
    const session = state.portalSessions[id];
    const expires = state.hidden.portalExpiry[id] ?? 0;
    return session && expires > Math.floor(Date.now() / 1000) ? session : undefined;
  }

  /** The customer's subscription the portal manages: the newest that has not ended. */
  const portalSubscription = (owner: string): Subscription | undefined =>
    Object.values(state.subscriptions)
      .filter((s) => s.customer === owner && s.status !== 'canceled')
      .sort((a, b) => b.created - a.created)[0];

  /** Saves a new card as the customer's and their subscriptions' default; a past-due one is paid with it at once. */
  function replaceCard(owner: string, card: Card): PaymentMethod {
    const found = customer(owner);
    const method = attachCard(found, card);
    for (const sub of Object.values(state.subscriptions)) {
      if (sub.customer !== owner || sub.status === 'canceled') continue;
      const previous = { default_payment_method: sub.default_payment_method };
      sub.default_payment_method = method.id;
      emit('customer.subscription.updated', sub, previous);
      if (sub.status === 'past_due') retry(sub);
    }
    return method;
  }

  // ---- the test clock ------------------------------------------------------

  /** Renews what is due, retries what failed, ends what was cancelled or never recovered. */
  function settleDue(result: AdvanceResult): void {
    const now = store.now();
    for (const session of Object.values(state.checkoutSessions))
      if (session.status === 'open') checkoutSession(session.id);
    const running = Object.values(state.subscriptions)
      .filter((s) => s.status !== 'canceled')
      .sort((a, b) => a.created - b.created);
    for (const sub of running) {
      if (sub.status === 'past_due') {
        const since = state.hidden.pastDueSince[sub.id] ?? now;
        const open = openInvoiceOf(sub);
        if (open && (open.next_payment_attempt ?? now) <= now) {
          if (retry(sub)) result.recovered.push(sub.id);
          else if (now - since >= RETRY_WINDOW_SECONDS) {
            endSubscription(sub, now, 'payment_failed');
            result.ended.push(sub.id);
            continue;
          }
        } else if (now - since >= RETRY_WINDOW_SECONDS) {
          endSubscription(sub, now, 'payment_failed');
          result.ended.push(sub.id);
          continue;
        }
        if (sub.status === 'past_due') continue;
      }
      // Active: every period that ended is renewed, until one fails or a scheduled cancel ends it.
      while (sub.status === 'active' && periodEnd(sub) <= now) {
        const item = itemOf(sub);
        if (sub.cancel_at_period_end) {
          endSubscription(sub, item.current_period_end, 'cancellation_requested');
          result.ended.push(sub.id);
          break;
        }
        const previous: Record<string, unknown> = {
          items: snapshot(sub.items),
        };
        const start = item.current_period_end;
        item.current_period_start = start;
        item.current_period_end = nextPeriodEnd(item.price, start);
        const bill = invoiceFor(sub, item.price.unit_amount * item.quantity, 'subscription_cycle', {
          start,
          end: item.current_period_end,
        });
        const paid = collect(bill, sub);
        setStatus(sub, paid ? 'active' : 'past_due', previous);
        emit('customer.subscription.updated', sub, previous);
        (paid ? result.renewed : result.failed).push(sub.id);
      }
    }
  }

  function advance(seconds: number): AdvanceResult {
    state.clockOffset += seconds;
    const result: AdvanceResult = {
      now: new Date(store.now() * 1000).toISOString(),
      renewed: [],
      failed: [],
      recovered: [],
      ended: [],
    };
    settleDue(result);
    return result;
  }

  return {
    /** Ties the events of one API request to it. */
    withRequest<T>(context: { id: string | null; idempotencyKey: string | null }, run: () => T): T {
      requestContext = context;
      try {
        return run();
      } finally {
        requestContext = { id: null, idempotencyKey: null };
      }
    },
    customer,
    product,
    price,
    subscription,
    invoice,
    createCustomer,
    updateCustomer,
    createProduct,
    updateProduct,
    createPrice,
    updatePrice,
    createCheckoutSession,
    checkoutSession,
    expireCheckoutSession,
    payCheckout,
    createRefund,
    createPortalConfiguration,
    portalConfiguration,
    updatePortalConfiguration,
    portalPrices,
    portalInvoices,
    changeTerms,
    createPortalSession,
    portalSession,
    portalSubscription,
    updateSubscription,
    cancelSubscription,
    replaceCard,
    payInvoice,
    advance,
  };
}

export type Ledger = ReturnType<typeof createLedger>;
