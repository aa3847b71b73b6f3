/** Testimonials (spec section 3): static, never user-submitted at runtime. Avatars are drawn. */
import type { Testimonial } from './types.ts';

/** Background/foreground pairs, all ≥ 4.5:1 (WCAG AA, tested; the lowest, green on white, about 5.4:1). */
const AVATAR_PALETTE = [
  { background: '#5b2ee0', foreground: '#ffffff' },
  { background: '#ffe8a3', foreground: '#1b1530' },
  { background: '#1f7a3a', foreground: '#ffffff' },
  { background: '#ede7ff', foreground: '#3d1d9e' },
  { background: '#0b5c8a', foreground: '#ffffff' },
  { background: '#ffd6cc', foreground: '#5c1a0b' },
  { background: '#b3261e', foreground: '#ffffff' },
  { background: '#d9f0e1', foreground: '#1b1530' },
  { background: '#1b1530', foreground: '#ffb703' },
  { background: '#cfe8ff', foreground: '#0b3a5c' },
] as const;

/** Initials from a display name such as 'Sarah M.' or 'Amara, 10'. */
function initialsOf(author: string): string {
  const name = author.split(',')[0] ?? author;
  return name
    .split(/\s+/)
    .filter((word) => /^\p{L}/u.test(word))
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

/** Each entry numbered from `firstId`, with its drawn avatar: its initials, in the palette's colours by turn. */
const withAvatars = (
  firstId: number,
  entries: readonly Omit<Testimonial, 'image' | 'id'>[],
): readonly Testimonial[] =>
  entries.map((entry, index) => ({
    ...entry,
    id: firstId + index,
    image: { initials: initialsOf(entry.author), ...AVATAR_PALETTE[index % AVATAR_PALETTE.length]! },
  }));

/** Home page: 16 fixed entries from parents, teachers, assistant heads and beta testers aged 9 to 11. */
export const HOME_TESTIMONIALS: readonly Testimonial[] = withAvatars(1, [
  {
    quote:
      'My eight-year-old used to go quiet whenever a grown-up asked her a question. After a month of recording her “Animal Facts” show, she volunteered to read in assembly.',
    author: 'Sarah M.',
    role: 'Parent of two, Leeds',
  },
  {
    quote:
      'I made a podcast about why hedgehogs need little gaps in garden fences. My favourite bit is choosing the background music at the end.',
    author: 'Amara, 10',
    role: 'Beta tester',
  },
  {
    quote:
      'For our Victorians topic every child recorded a two-minute interview with a chimney sweep. The planning prompts did more for their paragraphing than any worksheet I have used.',
    author: 'Daniel O.',
    role: 'Year 5 teacher, primary school in Bristol',
  },
  {
    quote:
      'I love that nothing goes live until I have listened to it through the private link. It means I can say yes to screen time without worrying.',
    author: 'Priya K.',
    role: 'Parent, Birmingham',
  },
  {
    quote:
      'Our reluctant writers now plan out loud first and write second. Pupil voice has become something we can actually hear around the school, not just a line in the development plan.',
    author: 'Rebecca T.',
    role: 'Assistant Head, primary school in Manchester',
  },
  {
    quote:
      'I did an episode about my football team and my grandad listened to it three times. Next I am doing one about volcanoes.',
    author: 'Oliver, 9',
    role: 'Beta tester',
  },
  {
    quote:
      'He has always been a chatterbox, but now his stories actually have an ending. Listening back has made him his own toughest editor.',
    author: 'James W.',
    role: 'Dad of one, Glasgow',
  },
  {
    quote:
      'Children who had never put their hand up were queuing for the recording corner. It has become our favourite way to show what we have learnt at the end of a topic.',
    author: 'Hannah L.',
    role: 'Year 3 teacher, primary school in Norwich',
  },
  {
    quote:
      'I was embarrassed hearing my own voice at first, but now I think it sounds quite professional. I like that I can re-record a bit if I get muddled.',
    author: 'Zainab, 11',
    role: 'Beta tester',
  },
  {
    quote:
      'We swapped half an hour of videos after school for making a podcast together. Screen time that ends with her explaining the water cycle to me feels like a good trade.',
    author: 'Claire H.',
    role: 'Parent, Cardiff',
  },
  {
    quote:
      'Safeguarding was the first thing our DSL checked, and parent approval plus moderation gave us real confidence. Staff were comfortable with it after a single twilight session.',
    author: 'Mark D.',
    role: 'Assistant Headteacher, primary school in Kent',
  },
  {
    quote:
      'My podcast is called “Space Station Leo” and I have made six episodes. I learnt that you should say the most interesting thing first.',
    author: 'Leo, 10',
    role: 'Beta tester',
  },
  {
    quote:
      'My middle child is dyslexic and has always dreaded writing. Telling his stories to the app first, then writing them down, has changed how he feels about English.',
    author: 'Fatima R.',
    role: 'Mum of three, London',
  },
  {
    quote:
      'We used it to prepare for our Year 6 debates. Pupils recorded their arguments, listened back and tightened them up before the big day.',
    author: 'Tom B.',
    role: 'Year 6 teacher, primary school in Sheffield',
  },
  {
    quote:
      'The prompts ask exactly the questions I would ask as a parent, like “what happened next?” and “how did that make you feel?”. She now asks them of herself.',
    author: 'Emma S.',
    role: 'Parent, Nottingham',
  },
  {
    quote:
      'I made a podcast with my cousin about our favourite books. We had to take turns talking, which was harder than it sounds!',
    author: 'Grace, 9',
    role: 'Beta tester',
  },
]);

/** Schools page: five entries from teachers, heads and SENCOs. */
export const SCHOOLS_TESTIMONIALS: readonly Testimonial[] = withAvatars(101, [
  {
    quote:
      'For pupils with dyslexia, speaking first removes the fear of the blank page. One Year 4 boy recorded a five-minute story and then wrote his longest piece of the year.',
    author: 'Nadia P.',
    role: 'SENCO, primary school in Leicester',
  },
  {
    quote:
      'Oracy is a priority in our school development plan, and this gave us a structured, safe way to build it into every class. Parents love hearing what their children have been learning.',
    author: 'Richard A.',
    role: 'Headteacher, primary school in North Yorkshire',
  },
  {
    quote:
      'New arrivals can rehearse speaking English without a room full of faces watching them. Being able to re-record takes the pressure off, and we hear their progress week by week.',
    author: 'Sophie G.',
    role: 'EAL lead, primary school in Luton',
  },
  {
    quote:
      'We use it for speaking practice in Welsh and French. I can finally listen to every child’s pronunciation, not just the three who always answer.',
    author: 'Aled J.',
    role: 'Year 4 teacher, primary school in Swansea',
  },
  {
    quote:
      'Our DSL signed it off quickly because no episode is published without a parent’s approval and a moderator’s check. It is now a regular step in our Year 5 and 6 writing sequence.',
    author: 'Helen M.',
    role: 'Deputy Headteacher, primary school in Oxfordshire',
  },
]);
