/**
 * The embedded Stripe's state: the objects it holds in Stripe's shapes (API
 * 2026-10-28), what it keeps beside them that Stripe does not show (how a
 * saved card behaves, a session's line), its keys and its test clock; kept
 * in a JSON file when it has a data directory.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CardBehaviour } from './test-cards';

/** The API version objects and events are shaped after (the SDK's pinned version). */
export const API_VERSION = '2026-10-28.endive';

export type Metadata = Record<string, string>;
export type Interval = 'day' | 'week' | 'month' | 'year';

export interface Customer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  metadata: Metadata;
  invoice_settings: {
    custom_fields: null;
    default_payment_method: string | null;
    footer: null;
    rendering_options: null;
  };
  address: null;
  balance: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  description: string | null;
  invoice_prefix: string;
  livemode: false;
  phone: null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  test_clock: null;
}

export interface Product {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  updated: number;
  default_price: string | null;
  description: string | null;
  images: string[];
  livemode: false;
  marketing_features: unknown[];
  metadata: Metadata;
  name: string;
  package_dimensions: null;
  shippable: null;
  statement_descriptor: null;
  tax_code: null;
  type: 'service';
  unit_label: null;
  url: null;
}

export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: {
    interval: Interval;
    interval_count: number;
    meter: null;
    trial_period_days: null;
    usage_type: 'licensed';
  } | null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'recurring' | 'one_time';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  billing_details: { address: null; email: null; name: null; phone: null };
  card: {
    brand: string;
    country: 'US';
    exp_month: number;
    exp_year: number;
    funding: 'credit';
    last4: string;
  };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Metadata;
  type: 'card';
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  livemode: false;
  metadata: Metadata;
  mode: 'subscription';
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string;
  url: string | null;
}

/** A portal flow: the confirm step of one subscription change. */
export interface PortalFlow {
  type: 'subscription_update_confirm';
  after_completion: {
    type: 'redirect' | 'portal_homepage';
    redirect: { return_url: string } | null;
    hosted_confirmation: null;
  };
  subscription_cancel: null;
  subscription_update: null;
  subscription_update_confirm: {
    discounts: null;
    items: Array<{ id: string; price: string; quantity: number }>;
    subscription: string;
  };
}

export interface PortalSession {
  id: string;
  object: 'billing_portal.session';
  configuration: string;
  created: number;
  customer: string;
  flow: PortalFlow | null;
  livemode: false;
  locale: null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}

/** The portal's configuration: what customers may change, and to which prices. */
export interface PortalConfiguration {
  id: string;
  object: 'billing_portal.configuration';
  active: boolean;
  application: null;
  business_profile: {
    headline: string | null;
    privacy_policy_url: string | null;
    terms_of_service_url: string | null;
  };
  created: number;
  default_return_url: string | null;
  features: {
    customer_update: { allowed_updates: string[]; enabled: boolean };
    invoice_history: { enabled: boolean };
    payment_method_update: { enabled: boolean; payment_method_configuration: null };
    subscription_cancel: {
      cancellation_reason: { enabled: boolean; options: string[] };
      enabled: boolean;
      mode: 'at_period_end' | 'immediately';
      proration_behavior: 'none' | 'create_prorations' | 'always_invoice';
    };
    subscription_pause: { enabled: boolean };
    subscription_update: {
      billing_cycle_anchor: null;
      default_allowed_updates: string[];
      enabled: boolean;
      products: Array<{
        adjustable_quantity: { enabled: false; maximum: null; minimum: 1 };
        prices: string[];
        product: string;
      }>;
      proration_behavior: 'none' | 'create_prorations' | 'always_invoice';
      schedule_at_period_end: { conditions: [] };
      trial_update_behavior: 'end_trial';
    };
  };
  is_default: boolean;
  livemode: false;
  login_page: { enabled: false; url: null };
  metadata: Metadata;
  name: string | null;
  updated: number;
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  billing_thresholds: null;
  created: number;
  current_period_end: number;
  current_period_start: number;
  discounts: string[];
  metadata: Metadata;
  plan: Record<string, unknown>;
  price: Price;
  quantity: number;
  subscription: string;
  tax_rates: unknown[];
}

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

export interface Subscription {
  id: string;
  object: 'subscription';
  application: null;
  application_fee_percent: null;
  automatic_tax: { disabled_reason: null; enabled: false; liability: null };
  billing_cycle_anchor: number;
  billing_cycle_anchor_config: null;
  billing_mode: { type: 'classic' };
  billing_thresholds: null;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: {
    comment: null;
    feedback: null;
    reason: 'cancellation_requested' | 'payment_failed' | null;
  };
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  days_until_due: null;
  default_payment_method: string | null;
  default_source: null;
  description: null;
  discounts: string[];
  ended_at: number | null;
  invoice_settings: { account_tax_ids: null; issuer: { type: 'self' } };
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  next_pending_invoice_item_invoice: null;
  on_behalf_of: null;
  pause_collection: null;
  payment_settings: {
    payment_method_options: null;
    payment_method_types: null;
    save_default_payment_method: 'off';
  };
  pending_invoice_item_interval: null;
  pending_setup_intent: null;
  pending_update: null;
  schedule: null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: null;
  transfer_data: null;
  trial_end: null;
  trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } };
  trial_start: null;
}

export type BillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

export interface Invoice {
  id: string;
  object: 'invoice';
  account_country: 'US';
  account_name: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  billing_reason: BillingReason;
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  default_payment_method: null;
  description: null;
  hosted_invoice_url: null;
  invoice_pdf: null;
  lines: {
    object: 'list';
    data: Record<string, unknown>[];
    has_more: false;
    total_count: number;
    url: string;
  };
  livemode: false;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string;
  parent: {
    quote_details: null;
    subscription_details: { metadata: Metadata; subscription: string };
    type: 'subscription_details';
  };
  period_end: number;
  period_start: number;
  status: 'draft' | 'open' | 'paid' | 'void';
  status_transitions: {
    finalized_at: number;
    marked_uncollectible_at: null;
    paid_at: number | null;
    voided_at: number | null;
  };
  subtotal: number;
  total: number;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  created: number;
  currency: string;
  customer: string;
  description: string;
  last_payment_error: { code: string; decline_code: string; message: string; type: 'card_error' } | null;
  livemode: false;
  metadata: Metadata;
  payment_method: string | null;
  latest_charge: string | null;
  status: 'succeeded' | 'requires_payment_method';
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: null;
  billing_details: { address: null; email: null; name: null; phone: null };
  captured: boolean;
  created: number;
  currency: string;
  customer: string;
  description: string;
  disputed: false;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Metadata;
  outcome: { network_status: string; reason: string | null; seller_message: string; type: string };
  paid: boolean;
  payment_intent: string;
  payment_method: string | null;
  receipt_email: string | null;
  refunded: boolean;
  status: 'succeeded' | 'failed';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: null;
  charge: string;
  created: number;
  currency: string;
  metadata: Metadata;
  payment_intent: string;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  receipt_number: null;
  status: 'succeeded';
}

/** How an invoice was paid: one per successful payment. */
export interface InvoicePayment {
  id: string;
  object: 'invoice_payment';
  amount_paid: number | null;
  amount_requested: number;
  created: number;
  currency: string;
  invoice: string;
  is_default: boolean;
  livemode: false;
  payment: { type: 'payment_intent'; payment_intent: string };
  status: 'paid' | 'open' | 'canceled';
  status_transitions: { canceled_at: number | null; paid_at: number | null };
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** A stored answer to a request sent with an Idempotency-Key. */
export interface IdempotentAnswer {
  method: string;
  path: string;
  /** The request's parameters, to refuse the key's reuse with others. */
  params: string;
  status: number;
  body: string;
  /** Real time, epoch seconds: keys are kept for a day. */
  at: number;
}

export interface StripeState {
  secretKey: string;
  webhookSecret: string;
  /** Seconds the test clock is ahead of real time. */
  clockOffset: number;
  invoiceCounter: number;
  customers: Record<string, Customer>;
  products: Record<string, Product>;
  prices: Record<string, Price>;
  paymentMethods: Record<string, PaymentMethod>;
  checkoutSessions: Record<string, CheckoutSession>;
  portalSessions: Record<string, PortalSession>;
  subscriptions: Record<string, Subscription>;
  invoices: Record<string, Invoice>;
  paymentIntents: Record<string, PaymentIntent>;
  charges: Record<string, Charge>;
  refunds: Record<string, Refund>;
  invoicePayments: Record<string, InvoicePayment>;
  portalConfigurations: Record<string, PortalConfiguration>;
  /** Newest last; the oldest are dropped past {@link MAX_EVENTS}. */
  events: StripeEvent[];
  idempotency: Record<string, IdempotentAnswer>;
  /** What Stripe keeps to itself. */
  hidden: {
    /** How each saved card behaves when charged. */
    cards: Record<string, CardBehaviour>;
    /** The one line of each Checkout session. */
    sessionLines: Record<string, { price: string; quantity: number; subscriptionMetadata: Metadata }>;
    /** Portal sessions work for an hour of real time. */
    portalExpiry: Record<string, number>;
    /** When a subscription's payments started failing (test clock). */
    pastDueSince: Record<string, number>;
    /** Portal sessions whose flow was completed (a flow runs once). */
    completedFlows?: Record<string, true>;
  };
}

export const MAX_EVENTS = 2000;
const MAX_IDEMPOTENCY_KEYS = 5000;
const IDEMPOTENCY_SECONDS = 24 * 60 * 60;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A Stripe-looking id: the prefix, then 24 random base-62 characters. */
export function newId(prefix: string, length = 24): string {
  let id = `${prefix}_`;
  for (const byte of randomBytes(length)) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

function emptyState(): StripeState {
  return {
    secretKey: newId('sk_test', 32),
    webhookSecret: `whsec_${randomBytes(24).toString('base64url')}`,
    clockOffset: 0,
    invoiceCounter: 0,
    customers: {},
    products: {},
    prices: {},
    paymentMethods: {},
    checkoutSessions: {},
    portalSessions: {},
    subscriptions: {},
    invoices: {},
    paymentIntents: {},
    charges: {},
    refunds: {},
    invoicePayments: {},
    portalConfigurations: {},
    events: [],
    idempotency: {},
    hidden: { cards: {}, sessionLines: {}, portalExpiry: {}, pastDueSince: {} },
  };
}

export interface Store {
  state: StripeState;
  /** Writes the state (atomically) when it has a file; call after every change. */
  save(): void;
  /** Unix seconds on the test clock. */
  now(): number;
}

/** The state of `dataDir` (created on first start), or one in memory. */
export function openStore(dataDir?: string): Store {
  const file = dataDir ? path.join(dataDir, 'stripe.json') : undefined;
  let state = emptyState();
  if (file && existsSync(file)) {
    state = { ...state, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<StripeState>) };
  }
  const save = () => {
    pruneIdempotency(state);
    if (state.events.length > MAX_EVENTS) state.events.splice(0, state.events.length - MAX_EVENTS);
    if (!file) return;
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    // It holds the keys: only the owner may read it.
    writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
    renameSync(temporary, file);
  };
  if (file && !existsSync(file)) save();
  return { state, save, now: () => Math.floor(Date.now() / 1000) + state.clockOffset };
}

function pruneIdempotency(state: StripeState): void {
  const cutoff = Math.floor(Date.now() / 1000) - IDEMPOTENCY_SECONDS;
  const entries = Object.entries(state.idempotency);
  const keep = entries.filter(([, answer]) => answer.at > cutoff).slice(-MAX_IDEMPOTENCY_KEYS);
  if (keep.length !== entries.length) state.idempotency = Object.fromEntries(keep);
}

/** `seconds` moved on by one `interval`, as Stripe bills: same day of the next month (clamped), and so on. */
export function addInterval(seconds: number, interval: Interval, count = 1): number {
  const date = new Date(seconds * 1000);
  if (interval === 'day') return seconds + 86_400 * count;
  if (interval === 'week') return seconds + 7 * 86_400 * count;
  const months = interval === 'month' ? count : 12 * count;
  const day = date.getUTCDate();
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** "$9.00" (USD cents). */
export const formatAmount = (cents: number, currency = 'usd'): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/** "$9.00 per month". */
export const formatPrice = (price: Pick<Price, 'unit_amount' | 'currency' | 'recurring'>): string =>
  `${formatAmount(price.unit_amount, price.currency)}${price.recurring ? ` per ${price.recurring.interval}` : ''}`;

/** "December 24, 2026" (UTC). */
export const formatDay = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
