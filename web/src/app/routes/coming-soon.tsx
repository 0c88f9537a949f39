import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { pageTitle } from '@/lib/page-title';

function ComingSoon({ title, text }: { title: string; text: string }) {
  return (
    <div className="mx-auto grid max-w-xl place-items-center px-4 py-24">
      <title>{pageTitle(title)}</title>
      <Card className="w-full p-8 text-center">
        <h1 className="text-3xl font-bold text-white">{title}</h1>
        <p className="mt-4 text-zinc-300">{text}</p>
        <p className="mt-2 text-sm text-zinc-400">This part of Tunesmith is coming soon.</p>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
          Back to home
        </Link>
      </Card>
    </div>
  );
}

export function Auth() {
  return (
    <ComingSoon title="Sign In / Sign Up" text="Creating an account and signing in will be available here." />
  );
}

export function CheckEmail() {
  return (
    <ComingSoon title="Check Your Email" text="After signing up you will confirm your email address here." />
  );
}

export function VerifyEmail() {
  return (
    <ComingSoon title="Verify Your Email" text="Email verification links will be confirmed on this page." />
  );
}

export function ResetPassword() {
  return (
    <ComingSoon
      title="Reset Your Password"
      text="Password reset links will let you choose a new password here."
    />
  );
}

export function Track() {
  return <ComingSoon title="Shared Track" text="Shared tracks will play on this page." />;
}

export function Profile() {
  return (
    <ComingSoon
      title="Account Settings"
      text="Your profile, subscription and account settings will live here."
    />
  );
}

export function Admin() {
  return <ComingSoon title="Admin" text="The administration area will be available here." />;
}
