// The page's forms act on the page: their submit does `act`, instead of the browser sending the
// form and leaving the page.

export function submitHandler(act: () => void) {
  return (event: Event) => {
    event.preventDefault();
    act();
  };
}
