/** About page copy. */
import { COMPANY_NAME, PRODUCT_NAME, ROUTE_PATHS } from '#src/config/site.ts';

export const ABOUT = {
  title: 'About Us',
  intro: `${PRODUCT_NAME} helps children find their voice, one episode at a time. We build a safe, voice-led podcast studio for children on iOS and Android, made in the UK for families and schools.`,
  // Each id is a section's anchor and heading id, unique on the page.
  sections: [
    {
      id: 'helping-children-grow',
      heading: 'Helping Children Grow Through Voice',
      paragraphs: [
        'Speaking clearly, listening well and organising your thoughts are skills children use every day, at school, with friends and, one day, at work. In a world where a question typed into a box gets an instant answer, the ability to think something through and explain it in your own words matters more than ever.',
        `${PRODUCT_NAME} turns screen time into skill time. Children plan an idea, record it, listen back and improve it, and they learn about structure, storytelling and their own voice along the way. The app guides them with friendly prompts, not adverts, scores or endless feeds.`,
        'Safety comes first. Parents or guardians set up and manage accounts for younger children, and every episode is approved by a parent and checked by a trained moderator before anyone else can hear it.',
      ],
    },
    {
      id: 'how-it-started',
      heading: 'How It Started',
      paragraphs: [
        `${PRODUCT_NAME} began at a kitchen table. One of our founders, a parent and former primary teacher, noticed that her children would happily talk for ten minutes about dinosaurs or football, yet froze when asked to write two sentences about them. When she handed them an old phone and said “tell me about it like a radio show”, the stories came pouring out, with a beginning, a middle and an end.`,
        'She tried the same idea with a small group of pupils who found writing hard, and saw their confidence grow week by week. Together with a software engineer who had spent years building apps for families, she set out to make a podcast studio that children could use on their own, and that parents and teachers could trust.',
        `${COMPANY_NAME} was founded to do exactly that. The first version was shaped by a group of beta testers aged 9 to 11, their parents, and teachers at UK primary schools, and they still help us decide what to build next.`,
      ],
    },
  ],
  cta: {
    heading: 'Start Your Journey',
    body: `Download ${PRODUCT_NAME} and help your child record their very first episode today.`,
    linkText: 'Get Started Now',
    to: ROUTE_PATHS.home,
  },
} as const;
