// A search box of a list: the text applies when submitted (Enter or the button), not at each key.
import { useState, type FormEvent } from "react";

interface SearchTextProps {
  id: string;
  label: string;
  /** The text in the address now; give the component this as its key, so that the back button
   * shows the text of the list it goes back to. */
  value: string;
  onSearch: (text: string) => void;
}

export function SearchText({ id, label, value, onSearch }: SearchTextProps) {
  const [typed, setTyped] = useState(value);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(typed.trim());
  };
  return (
    <form className="filter search" role="search" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <div className="search-row">
        <input id={id} type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit">Search</button>
      </div>
    </form>
  );
}
