/**
 * The home and schools pages' h1s. Their own module so the route table (loaded on every page)
 * names them without pulling in the home and schools content.
 */
export const HOME_HEADLINE = 'Your child’s voice, their own podcast';
export const SCHOOLS_HEADLINE = 'Give a Voice to Every Learner';
