import { type User, UserNotFound } from "../../domain/identity/user.ts";
import type { UserRepository } from "./ports.ts";

export function makeGetUser(deps: { readonly users: UserRepository }) {
  return async function getUser(id: string): Promise<User> {
    const user = await deps.users.findById(id);
    if (!user) throw new UserNotFound();
    return user;
  };
}
