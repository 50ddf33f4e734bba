// Settings → Members (C12): who is in the organization, inviting someone (their setup link shown
// once, to send them), changing a role, disabling, and a new setup link for a forgotten password.
// Only an owner acts on an owner (C20), so an admin sees an owner's row without controls.
import { useEffect, useId, useState, type FormEvent } from "react";
import { messageOf } from "../api/client";
import { useMember } from "../api/session";
import { Alert } from "../ui/alert";
import { Field } from "../ui/field";
import { Confirm, otherRefusal, refusalFor, ShownOnce, when } from "./parts";
import { useChangeRole, useDisableMember, useInvite, useMembers, useNewSetupLink } from "./queries";
import { ROLES, type Member, type Role } from "./types";
import { TableScroll } from "../ui/table-scroll";

const INVITE_FIELDS = ["email", "name", "role"] as const;
const INVITE_CODES = { duplicate_member: "email" };

interface Link {
  name: string;
  email: string;
  url: string;
}

export function MembersSettings() {
  const me = useMember();
  const members = useMembers();
  const [link, setLink] = useState<Link | null>(null);
  const grantable = ROLES.filter((role) => role !== "owner" || me.role === "owner");
  return (
    <>
      <h1>Members</h1>
      <InviteForm roles={grantable} onInvited={setLink} />
      {link && (
        <ShownOnce label={`Setup link for ${link.name}`} value={link.url} onDone={() => setLink(null)}>
          Send this link to {link.email}. It sets their password, works once, for 7 days, and is not shown again.
        </ShownOnce>
      )}
      <h2>Everyone in the organization</h2>
      {members.isPending && <p role="status">Loading the members…</p>}
      {members.isError && <p role="alert">{messageOf(members.error)}</p>}
      {members.data && (
        <TableScroll label="Members table">
          <table className="settings-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Last signed in</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((member) => (
                <MemberRow key={member.id} member={member} me={me} roles={grantable} onLink={setLink} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}

function InviteForm({ roles, onInvited }: { roles: Role[]; onInvited: (link: Link) => void }) {
  const invite = useInvite();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("member");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email, name, role },
      {
        onSuccess: (made) => {
          onInvited({ name: made.name, email: made.email, url: made.setup_url });
          setEmail("");
          setName("");
        },
      },
    );
  };
  const error = (field: string) => refusalFor(invite.error, field, INVITE_FIELDS, INVITE_CODES);
  const other = otherRefusal(invite.error, INVITE_FIELDS, INVITE_CODES);
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a member</h2>
      <div className="settings-fields">
        <Field label="Email" error={error("email")}>
          {(control) => <input {...control} type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Name" error={error("name")}>
          {(control) => <input {...control} required autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Role" error={error("role")}>
          {(control) => (
            <select {...control} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Alert message={other} />
      <button type="submit" disabled={invite.isPending}>
        Invite
      </button>
    </form>
  );
}

interface RowProps {
  member: Member;
  me: Member;
  roles: Role[];
  onLink: (link: Link) => void;
}

function MemberRow({ member, me, roles, onLink }: RowProps) {
  const changeRole = useChangeRole();
  const disable = useDisableMember();
  const setupLink = useNewSetupLink();
  const [role, setRole] = useState<Role>(member.role);
  useEffect(() => setRole(member.role), [member.role]);
  const roleId = useId();
  const disabled = member.disabled_at !== null;
  const self = member.id === me.id;
  const mayAct = !disabled && (member.role !== "owner" || me.role === "owner");
  const refusal = disable.error ?? setupLink.error;
  const changed = (event: FormEvent) => {
    event.preventDefault();
    changeRole.mutate({ id: member.id, role });
  };
  return (
    <tr className={disabled ? "disabled" : undefined}>
      <th scope="row">
        {member.name}
        {self && <span className="hint"> (you)</span>}
        {disabled && <span className="badge off">Disabled</span>}
      </th>
      <td>{member.email}</td>
      <td>
        {mayAct ? (
          <form className="inline" onSubmit={changed}>
            <label htmlFor={roleId} className="sr-only">
              Role of {member.name}
            </label>
            <select
              id={roleId}
              value={role}
              onChange={(e) => setRole(e.target.value as Role)}
              aria-invalid={changeRole.isError || undefined}
              aria-describedby={changeRole.isError ? `${roleId}-error` : undefined}
            >
              {(roles.includes(member.role) ? roles : [member.role, ...roles]).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            <button type="submit" disabled={changeRole.isPending || role === member.role} aria-label={`Change role of ${member.name}`}>
              Change role
            </button>
          </form>
        ) : (
          member.role
        )}
        {changeRole.isError && (
          <p className="error" role="alert" id={`${roleId}-error`}>
            {messageOf(changeRole.error)}
          </p>
        )}
      </td>
      <td>{disabled ? `disabled ${when(member.disabled_at)}` : when(member.last_sign_in_at)}</td>
      <td>
        {mayAct && (
          <div className="actions">
            <button
              type="button"
              className="quiet"
              disabled={setupLink.isPending}
              aria-label={`New setup link for ${member.name}`}
              onClick={() => setupLink.mutate(member.id, { onSuccess: (made) => onLink({ name: member.name, email: member.email, url: made.setup_url }) })}
            >
              New setup link
            </button>
            {!self && (
              <Confirm
                action="Disable"
                subject={member.name}
                question={`Disable ${member.name}? Their sessions end at once and they can no longer sign in.`}
                pending={disable.isPending}
                onConfirm={() => disable.mutate(member.id)}
              />
            )}
          </div>
        )}
        {refusal && (
          <p className="error" role="alert">
            {messageOf(refusal)}
          </p>
        )}
      </td>
    </tr>
  );
}
