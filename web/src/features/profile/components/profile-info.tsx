import { useId } from 'react';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { User } from '@/lib/auth';

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly className="cursor-default bg-zinc-950/30 text-zinc-300" />
    </div>
  );
}

/** The account's names and address, read-only. */
export function ProfileInfo({ user }: { user: User }) {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold text-white">Profile Information</h2>
        <p className="text-sm text-zinc-400">Your name and the address you sign in with.</p>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <ReadOnlyField label="First Name" value={user.firstName ?? ''} />
        <ReadOnlyField label="Last Name" value={user.lastName ?? ''} />
        <div className="sm:col-span-2">
          <ReadOnlyField label="Current Email" value={user.email ?? ''} />
        </div>
      </CardContent>
    </Card>
  );
}
