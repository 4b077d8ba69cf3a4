import { UserNotFound } from "../../domain/identity/errors.ts";
import type { User } from "../../domain/identity/user.ts";
import type { UserRepository } from "./ports.ts";

export function makeGetUser(deps: { readonly users: UserRepository }) {
  return async function getUser(id: string): Promise<User> {
    const user = await deps.users.findById(id);
    if (!user) throw new UserNotFound();
    return user;
  };
}
