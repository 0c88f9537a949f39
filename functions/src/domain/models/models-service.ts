/**
 * The models on offer and their administration (decision 051): what
 * `GET /api/models` answers to a visitor or a user, what the admin Models
 * page reads, and saving its settings (checked whole, audited).
 */
import type {
  AdminModels,
  ModelSettings,
  ModelsAnswer,
  OfferedModel,
} from '@tunesmith/shared/model-settings';
import { MODEL_JOB_KINDS, MUSIC_MODELS, modelRuns } from '@tunesmith/shared/models';
import type { AdminUser } from '../accounts/admin';
import type { Clock } from '../accounts/ports';
import type { User } from '../accounts/user';
import { audit } from '../admin/audit';
import type { AuditDeps } from '../admin/ports';
import { isPaidPlan } from '../generations/entitlements';
import type { Plan, PlanRepository } from '../plans/plan';
import { isUsable, type ModelContext, modelPlanInForce, plansOffering, quotaCostOf } from './model-choice';
import { checkModelSettings, type ModelSettingsSource, settingsInForce } from './model-settings';
import { type ModelUsageCounters, weekUsage } from './model-usage';

export interface ModelsDeps {
  modelSettings: Pick<ModelSettingsSource, 'read'>;
  plans: Pick<PlanRepository, 'listBySortOrder'>;
  clock: Clock;
}

type Caller = Pick<User, 'planStatus' | 'planEndDate'>;

const studioKinds = MODEL_JOB_KINDS.filter((kind) => kind !== 'text') as ('audio' | 'extend' | 'repaint')[];

/** The models that are on, as a caller (undefined: a visitor) with `plan` (their subscribed plan) sees them. */
export function offeredModels(context: ModelContext): ModelsAnswer {
  const models: OfferedModel[] = MUSIC_MODELS.filter((m) => context.settings.models[m.id]?.enabled).map(
    (m) => ({
      id: m.id,
      name: m.name,
      vendor: m.vendor,
      bestFor: m.bestFor,
      lyrics: m.lyrics,
      ...('lyricsLength' in m ? { lyricsLength: { ...m.lyricsLength } } : {}),
      promptLength: { ...m.promptLength },
      duration: m.duration ? { ...m.duration } : null,
      languages: [...m.languages],
      studio: studioKinds.filter((kind) => modelRuns(m, kind)),
      price: { ...m.price },
      termsUrl: m.termsUrl,
      quotaCost: quotaCostOf(context, m),
      plans: plansOffering(context, m).map((p) => ({ id: p.id, name: p.name })),
      available: isUsable(context, m),
    }),
  );
  return { defaultModel: context.settings.defaultModel, models };
}

/** `GET /api/models`: for a visitor every model that is on, none available; for a user, those their plan offers. */
export async function listModels(
  deps: ModelsDeps,
  caller: (Caller & { plan: Plan | undefined }) | undefined,
): Promise<ModelsAnswer> {
  const [stored, plans] = await Promise.all([deps.modelSettings.read(), deps.plans.listBySortOrder()]);
  const settings = settingsInForce(stored, plans);
  const planId = caller ? modelPlanInForce(caller, caller.plan, plans, deps.clock.now()) : undefined;
  return offeredModels({ settings, plans, planId, signedIn: caller !== undefined });
}

/** `GET /api/admin/models`: the registry, the settings in force, the plans and this week's use of each model. */
export async function adminModels(
  deps: ModelsDeps & { modelUsage: ModelUsageCounters },
): Promise<AdminModels> {
  const [stored, plans, week] = await Promise.all([
    deps.modelSettings.read(),
    deps.plans.listBySortOrder(),
    weekUsage(deps),
  ]);
  return {
    settings: settingsInForce(stored, plans),
    models: MUSIC_MODELS.map((m) => ({
      id: m.id,
      name: m.name,
      vendor: m.vendor,
      bestFor: m.bestFor,
      endpoints: { ...m.endpoints },
      lyrics: m.lyrics,
      duration: m.duration ? { ...m.duration } : null,
      price: { ...m.price },
      termsUrl: m.termsUrl,
      defaultQuotaCost: m.defaultQuotaCost,
    })),
    plans: plans.map((p) => ({ id: p.id, name: p.name, paid: isPaidPlan(p) })),
    weekStart: week.weekStart,
    usage: week.usage,
  };
}

/** What changed between two settings documents, in a line for the activity log. */
function changes(before: ModelSettings, after: ModelSettings): string {
  const said: string[] = [];
  if (before.defaultModel !== after.defaultModel) said.push(`default ${after.defaultModel}`);
  for (const m of MUSIC_MODELS) {
    const was = before.models[m.id];
    const now = after.models[m.id];
    if (!was || !now) continue;
    if (was.enabled !== now.enabled) said.push(`${m.id} ${now.enabled ? 'on' : 'off'}`);
    if (was.quotaCost !== now.quotaCost) said.push(`${m.id} costs ${now.quotaCost}`);
    if (was.plans.join() !== now.plans.join()) said.push(`${m.id} plans ${now.plans.join(', ') || 'none'}`);
  }
  return said.length ? `Updated models: ${said.join('; ')}` : 'Saved models unchanged';
}

/**
 * `PUT /api/admin/models`: checks the whole document against the registry and
 * the plans (a 400 stores nothing), stores it, and audits what changed. It
 * applies at once where it was saved and everywhere within a minute; a
 * generation already started finishes on the model it started with.
 */
export async function updateModels(
  deps: Omit<ModelsDeps, 'modelSettings'> & AuditDeps & { modelSettings: ModelSettingsSource },
  admin: Pick<AdminUser, 'username'>,
  input: ModelSettings,
): Promise<ModelSettings> {
  const [stored, plans] = await Promise.all([deps.modelSettings.read(), deps.plans.listBySortOrder()]);
  const checked = checkModelSettings(input, plans);
  await deps.modelSettings.write(checked);
  await audit(deps, admin, 'models.update', 'models', changes(settingsInForce(stored, plans), checked));
  return checked;
}
