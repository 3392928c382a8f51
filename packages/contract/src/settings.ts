import { type Static, Type } from '@sinclair/typebox';

export const SettingName = Type.Union([Type.Literal('ADD_PAYMENT_CARD'), Type.Literal('DEPOSIT')]);
export const SettingQuery = Type.Object({ name: SettingName }, { additionalProperties: false });
export const AddPaymentCardSetting = Type.Object({ mandatory: Type.Boolean() }, { additionalProperties: false });
export const DepositSetting = Type.Object({ minAmount: Type.Number({ minimum: 0 }) }, { additionalProperties: false });
export const Setting = Type.Object({
  name: SettingName,
  settings: Type.Union([AddPaymentCardSetting, DepositSetting]),
});

export type SettingName = Static<typeof SettingName>;
export type Setting = Static<typeof Setting>;
