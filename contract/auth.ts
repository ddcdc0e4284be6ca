import { z } from "zod";

// Logging in to the admin.

export const LoginInputSchema = z.object({ password: z.string().min(1, "Password is required") });
export type LoginInput = z.infer<typeof LoginInputSchema>;
export const AuthStatusSchema = z.object({ authenticated: z.boolean() }).meta({ id: "AuthStatus" });
export type AuthStatus = z.infer<typeof AuthStatusSchema>;
