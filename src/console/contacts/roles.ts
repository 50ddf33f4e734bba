// Who may change contacts (C12: every role but a viewer holds contacts:write).
import type { Member } from "../api/client";

export const canWriteContacts = (member: Member) => member.role !== "viewer";
