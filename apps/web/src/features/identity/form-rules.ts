import { isStrongPassword, isValidEmail, Messages } from '@ebs/contract';
import type { FormRule } from 'antd';
import { Texts } from '../../lib/texts';

export const required = (message: string): FormRule => ({ required: true, whitespace: true, message });

const check =
  (passes: (value: string) => boolean, message: string): FormRule =>
  () => ({
    validator: (_rule, value: unknown) =>
      !value || passes(String(value)) ? Promise.resolve() : Promise.reject(new Error(message)),
  });

export const emailRules = (requiredMessage: string): FormRule[] => [
  required(requiredMessage),
  check(isValidEmail, Messages.invalidEmail),
];

/** The rule itself shows under the field (NewPasswordFields): the error points to it rather than repeat it. */
export const strongPassword = check(isStrongPassword, Texts.passwordBelowRule);

/** The confirm field must equal `field`: Passwords do not match. */
export const sameAs =
  (field: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !value || value === getFieldValue(field)
        ? Promise.resolve()
        : Promise.reject(new Error(Messages.passwordsDoNotMatch)),
  });

export const codeRules: FormRule[] = [
  required(Messages.verificationCodeRequired),
  { pattern: /^\d{6}$/, message: Messages.verificationCodeFormat },
];

/** The code input keeps digits only (6 numeric digits, spec B §5). */
export const digitsOnly = (value: string | undefined) => (value ?? '').replace(/\D/g, '').slice(0, 6);
