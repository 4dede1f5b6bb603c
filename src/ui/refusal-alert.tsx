import type { ComponentChildren } from 'preact';

// How the page says that something failed or was refused: an alert (read out at once) with what
// went wrong in a sentence, and each issue the API listed, where it listed any.

export function RefusalAlert(props: {
  children: ComponentChildren;
  details?: readonly string[];
  testId?: string;
}) {
  const { details = [] } = props;
  return (
    <div role="alert" class="refusal" data-testid={props.testId}>
      <p>{props.children}</p>
      {details.length > 0 && (
        <ul>
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
