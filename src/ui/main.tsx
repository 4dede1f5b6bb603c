import { render } from 'preact';

render(<p>evalflow</p>, document.getElementById('app') as HTMLElement);
