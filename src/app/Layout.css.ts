import { style } from '@vanilla-extract/css';

export { shell, skipLink } from '@/styles/layout.css';

export const main = style({ flex: '1 0 auto' });

