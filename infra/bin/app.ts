import { buildApp } from '../lib/app';

// buildApp adds cdk-nag's AwsSolutionsChecks, so `cdk synth` fails on any unsuppressed finding.
buildApp().app.synth();
