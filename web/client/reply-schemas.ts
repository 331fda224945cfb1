// The contract schemas (core/contract) of the replies the page reads; loaded on demand by ./replies.ts.
export { signInReplySchema } from '../../core/contract/auth';
export { billingReplySchema, cancelReplySchema, checkoutReplySchema } from '../../core/contract/billing';
export { errorReplySchema } from '../../core/contract/errors';
export { listedTimerSchema, statusReplySchema, timersReplySchema } from '../../core/contract/timers';
export { feedUrlsSchema, runNowReplySchema, searchReplySchema, timerRunsReplySchema } from '../../core/contract/event-replies';
export { apiTokensReplySchema, createdApiTokenReplySchema } from '../../core/contract/api-tokens';
export { describeReplySchema } from '../../core/contract/describe';
export { runMapReplySchema } from '../../core/contract/run-map';
export { searchHistoryReplySchema } from '../../core/contract/search-history';
export { testDeliveryReplySchema, timerPreviewReplySchema } from '../../core/contract/test-delivery';
export { timerChannelSchema } from '../../core/contract/timer-channels';
