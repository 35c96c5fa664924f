import type { LotteryInputs, LotteryRole, LotteryView } from '../domain/lottery';
import { LOTTERY_ACTIONS, LOTTERY_SIGNALS } from '../domain/lottery.table';
import { caseMessages } from './case/messages';

/** Messages of the lottery workflow, generated from its action table (imported by the API and lease-up). */
export const lotteryMessages = caseMessages<LotteryInputs, LotteryRole, LotteryView>(LOTTERY_ACTIONS, LOTTERY_SIGNALS);
