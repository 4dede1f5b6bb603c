import type { ComponentChildren } from 'preact';

// A part of a page named by its heading (the name screen readers give the section), which says
// quietly that it has nothing to show (`none`) instead of showing an empty list or table.

export function TitledSection(props: {
  /** The heading's id is `${name}-title`. */
  name: string;
  title: ComponentChildren;
  /** Said instead of the content, when there is none (false or absent: there is some). */
  none?: string | false;
  children?: ComponentChildren;
}) {
  const titleId = `${props.name}-title`;
  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {props.none ? <p class="quiet">{props.none}</p> : props.children}
    </section>
  );
}
