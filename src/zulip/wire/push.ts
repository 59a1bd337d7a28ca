/** `POST /mobile_push/e2ee/test_notification` parameters (not in the 10.2 yaml). */
export interface E2eeTestNotificationParams {
  /** When omitted, every registered device of the user. */
  readonly push_account_id?: number | undefined;
}
