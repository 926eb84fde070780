/** Hand-written responses shaped as the contract describes them, for the schema tests. */
const at = '2024-05-01T10:00:00.000Z';
const app = 'http://127.0.0.1:8080/app/recordings/r1';
const bundleUrl = 'http://127.0.0.1:8080/api/v1/recordings/r1/bundle';

export const tokenInfo = {
  schemaVersion: 1,
  owner: { type: 'user', id: 'a1', displayName: null },
  token: {
    id: 't1',
    name: 'agent',
    scopes: ['recordings:read', 'account:read'],
    dailyMinuteCap: null,
    usedMinutes24h: 0,
    expiresAt: null,
  },
  wallet: { balanceMinutes: -3 },
  limits: { maxUploadMb: 500, maxRecordingMinutes: 300 },
};

export const listItem = {
  id: 'r1',
  title: null,
  kind: 'MEETING',
  createdAt: at,
  recordedAt: at,
  durationSeconds: 61,
  url: app,
  bundleUrl,
  series: { id: 's1', name: 'Weekly' },
  displayTitle: 'Weekly 2024-05-01',
};

export const listPage = { schemaVersion: 1, items: [listItem], nextCursor: '1714557600000.r1' };
export const searchPage = {
  schemaVersion: 1,
  items: [{ ...listItem, series: null, snippet: '… we decided to ship …' }],
  nextCursor: null,
};

export const submitResult = {
  schemaVersion: 1,
  recording: {
    id: 'r1',
    status: 'QUEUED',
    minutes: 2,
    recordedAt: at,
    statusUrl: 'http://127.0.0.1:8080/api/v1/recordings/r1/status',
    bundleUrl: null,
    url: app,
  },
};

export const statusNaming = {
  schemaVersion: 1,
  id: 'r1',
  status: 'NAMING',
  title: 'Kickoff',
  error: null,
  naming: { url: 'http://127.0.0.1:8080/app/recordings/r1/speakers', deadline: null },
  bundleUrl: null,
  url: app,
};
export const statusFailed = {
  ...statusNaming,
  status: 'FAILED',
  naming: null,
  error: { code: 'NO_SPEECH', retryable: false },
};

const SECTIONS = [
  { kind: 'summary', title: 'Summary', text: 'A short kickoff.' },
  { kind: 'decision_list', title: 'Decisions', items: ['Ship on Friday'] },
  {
    kind: 'action_item_list',
    title: 'Action items',
    items: [
      { text: 'Write notes', owner: 'Sara' },
      { text: 'Book room', owner: null },
    ],
  },
  { kind: 'key_point_list', title: 'Key points', items: ['Friday'] },
  { kind: 'question_list', title: 'Questions', items: ['Who tests?'] },
  { kind: 'timeline', title: 'A kind from a later release', entries: [] },
];

export const bundle = {
  schemaVersion: 1,
  recording: {
    id: 'r1',
    title: 'Kickoff',
    displayTitle: 'Weekly — 1403/02/12',
    subtitle: 'Kickoff',
    kind: 'MEETING',
    source: 'api',
    recordedAt: at,
    createdAt: at,
    duration: 61,
    durationSeconds: 61,
    url: app,
    series: { id: 's1', name: 'Weekly' },
    access: 'owner',
  },
  transcript: {
    language: 'en',
    speakers: [
      { label: 'speaker_0', name: 'Sara' },
      { label: 'speaker_1', name: null },
    ],
    segments: [
      { index: 0, speaker: 'speaker_0', startMs: 0, endMs: 2100, text: 'Good morning.' },
      { index: 1, speaker: 'speaker_1', startMs: 2100, endMs: 5000, text: 'We decided to ship on Friday.' },
    ],
    text: 'Good morning. We decided to ship on Friday.',
    markdown: '**Sara**: Good morning.\n\n**speaker_1**: We decided to ship on Friday.',
  },
  digest: {
    type: 'MEETING',
    language: 'en',
    content: SECTIONS,
    sections: SECTIONS,
    markdown: '## Summary\n\nA short kickoff.',
  },
  stats: {
    speakers: [
      { speaker: 'speaker_0', name: 'Sara', speakingMs: 2100, turns: 1, questions: 0 },
      { speaker: 'speaker_1', name: null, speakingMs: 2900, turns: 1, questions: 0 },
    ],
    totalTurns: 2,
    durationMs: 5000,
  },
};

export const eventPage = {
  schemaVersion: 1,
  events: [
    {
      id: 'e1',
      type: 'recording.created',
      recordingId: 'r1',
      seriesId: null,
      occurredAt: at,
      data: { status: 'QUEUED' },
    },
    {
      id: 'e2',
      type: 'recording.failed',
      recordingId: 'r2',
      seriesId: 's1',
      occurredAt: at,
      data: { status: 'FAILED', error: { code: 'TRANSCRIBE_FAILED', retryable: true } },
    },
    {
      id: 'e3',
      type: 'recording.updated',
      recordingId: 'r1',
      seriesId: null,
      occurredAt: at,
      data: { status: 'READY', change: 'renamed' },
    },
  ],
  nextCursor: 'c_1',
};

export const series = {
  schemaVersion: 1,
  series: {
    id: 's1',
    name: 'Weekly',
    access: 'owner',
    defaultKind: 'MEETING',
    defaultOutputLanguage: 'MATCH',
    titleStyle: 'SESSION',
    dateCalendar: 'AUTO',
    meetingCount: 0,
    lastRecordedAt: null,
  },
};
export const seriesList = {
  schemaVersion: 1,
  items: [
    {
      id: 's1',
      name: 'Weekly',
      role: 'member',
      meetingCount: 3,
      url: 'http://127.0.0.1:8080/app/series/s1',
      meetingsUrl: 'http://127.0.0.1:8080/api/v1/recordings/ready?seriesId=s1',
    },
  ],
};
export const seriesKeyterms = { schemaVersion: 1, keyterms: ['Kubernetes', 'کوبرنتیز'], inheritAccountKeyterms: true };
export const accountKeyterms = { schemaVersion: 1, keyterms: [] };

export const account = {
  schemaVersion: 1,
  owner: { type: 'user', id: 'a1', displayName: 'Sara' },
  wallet: { balanceMinutes: 120 },
  settings: { speakerNamingMode: 'AUTO', memoryLearningEnabled: true, summaryEmailEnabled: false, uiLocale: 'fa' },
};

export const memoryItem = { id: 'm1', category: 'PEOPLE', text: 'Sara leads design.', meetingCount: 2, pinned: false };
export const memoryList = { schemaVersion: 1, memoryEnabled: true, items: [memoryItem] };
export const memoryItemResponse = { schemaVersion: 1, item: { ...memoryItem, pinned: true } };
export const memoryDelete = { schemaVersion: 1, id: 'm1', deleted: true };

export const recordingAnswer = {
  schemaVersion: 1,
  answer: 'Friday [1].',
  citations: [{ startMs: 2100, speaker: 'speaker_1' }],
  minutes: 1,
  refused: false,
};
export const seriesAnswer = {
  schemaVersion: 1,
  answer: 'Friday [1].',
  citations: [{ startMs: 2100, speaker: null, recordingId: 'r1' }],
  minutes: 3,
  refused: false,
};
export const recordingQuote = { schemaVersion: 1, minutes: 1 };
export const seriesQuote = { schemaVersion: 1, minutes: 3, meetingCount: 2 };
