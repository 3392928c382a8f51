import { useMutation } from '@tanstack/react-query';
import { identityApi } from './identity-api';

export const useSignIn = () => useMutation({ mutationFn: identityApi.signIn });
export const useSignUp = () => useMutation({ mutationFn: identityApi.signUp });
export const useConfirmSignUp = () => useMutation({ mutationFn: identityApi.confirmSignUp });
export const useForgotPassword = () => useMutation({ mutationFn: identityApi.forgotPassword });
export const useConfirmForgotPassword = () => useMutation({ mutationFn: identityApi.confirmForgotPassword });
export const useChangePassword = () => useMutation({ mutationFn: identityApi.changePassword });
export const useAnswerMfaChallenge = () => useMutation({ mutationFn: identityApi.answerMfaChallenge });
export const useSetUpMfa = () => useMutation({ mutationFn: identityApi.setUpMfa });
export const useEnableMfa = () => useMutation({ mutationFn: identityApi.enableMfa });
export const useDisableMfa = () => useMutation({ mutationFn: identityApi.disableMfa });
