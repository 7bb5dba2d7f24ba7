/**
 * The activity strip above every screen: each long write of the account (queries/longWrites.ts:
 * marking as read, deleting a topic), wherever it was started. While it runs, a progress bar
 * named after the work (determinate when it counts what is left, with the step from the second
 * round on); then that it finished, or the failed round's message with Try again.
 */
import { X } from 'lucide-react';
import { useRef } from 'react';
import {
  dismissLongWrite,
  doneText,
  failureText,
  type LongWriteJob,
  runningText,
  useLongWrites,
} from '../../queries/longWrites';
import { useAccountState } from '../../stores/hooks';
import { Banner, Button, IconButton, Progress } from '../../ui';
import { readProgress } from './streamsModel';
import './streams.css';

export function LongWriteStatus() {
  const { jobs, run } = useLongWrites();
  if (jobs.length === 0) return null;
  return (
    <div className="long-writes">
      {jobs.map((job) => (
        <JobLine key={job.id} job={job} retry={() => void run(job.write)} />
      ))}
    </div>
  );
}

function JobLine({ job, retry }: { job: LongWriteJob; retry: () => void }) {
  const measure = job.write.remaining;
  const remaining = useAccountState((a) => (measure ? measure(a) : null));
  // The most seen since the job appeared: what there was to do (its first render, in practice).
  const peak = useRef(0);
  if (remaining !== null && remaining > peak.current) peak.current = remaining;
  const dismiss = (
    <IconButton
      label="Dismiss"
      icon={<X size={14} aria-hidden="true" />}
      onPress={() => dismissLongWrite(job.id)}
    />
  );
  switch (job.status) {
    case 'running':
      return (
        <Banner tone="info" role="status">
          <Progress
            label={runningText(job)}
            value={remaining === null ? undefined : readProgress(peak.current, remaining)}
          />
        </Banner>
      );
    case 'done':
      return (
        <Banner tone="ok" role="status" action={dismiss}>
          {doneText(job)}
        </Banner>
      );
    case 'failed':
      return (
        <Banner
          tone="danger"
          role="alert"
          action={
            <>
              <Button size="sm" onPress={retry}>
                Try again
              </Button>
              {dismiss}
            </>
          }
        >
          {failureText(job)}
        </Banner>
      );
  }
}
