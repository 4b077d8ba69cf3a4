import type { Role, User } from "../../domain/identity/user.ts";

export interface NewUser {
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly passwordHash: string;
}

export interface StoredUser extends User {
  readonly passwordHash: string;
}

export interface UserRepository {
  findByEmail(email: string): Promise<StoredUser | undefined>;
  findById(id: string): Promise<User | undefined>;
  /** Returns undefined when the email is taken (the unique constraint decides, not a prior read). */
  insert(user: NewUser): Promise<User | undefined>;
  /** Creates the account or updates its name, role and password when the email exists. */
  upsert(user: NewUser): Promise<User>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}
