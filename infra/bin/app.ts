import { buildApp, ensureWebBuild } from '../lib/app';
import { webDist } from '../lib/paths';

// The stack uploads the SPA: build it first when there is none (a deploy must not serve an empty site).
ensureWebBuild(webDist);

// buildApp adds cdk-nag's AwsSolutionsChecks, so `cdk synth` fails on any unsuppressed finding.
buildApp().app.synth();
