import { MeetingMemoryClient, type SubmitResult, type RecordingStatus } from './client';
import { submitRecording, type SubmitInput } from './submit';
import { waitForReady, type WaitOptions } from './wait';
import { followEvents, type FeedItem, type FollowOptions } from './events';

/** The client with the agent loop's helpers as methods: submit, wait, follow the feed. */
export class MeetingMemory extends MeetingMemoryClient {
  submitRecording(input: SubmitInput): Promise<SubmitResult> {
    return submitRecording(this, input);
  }

  waitForReady(id: string, opts?: WaitOptions): Promise<RecordingStatus> {
    return waitForReady(this, id, opts);
  }

  followEvents(opts?: FollowOptions): AsyncGenerator<FeedItem> {
    return followEvents(this, opts);
  }
}
